/**
 * Callbacks for a signal's abort, all behind ONE listener per signal. A command hands one signal to
 * every request and every wait of a pass; a listener each would pass Node's limit of ten per
 * EventTarget (a MaxListenersExceededWarning, a leak for all Node knows).
 */
const waiting = new WeakMap<AbortSignal, Set<() => void>>();

/** Calls `callback` once when `signal` aborts; the function returned forgets it (call it once done waiting). */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  let callbacks = waiting.get(signal);
  if (callbacks === undefined) {
    const created = new Set<() => void>();
    callbacks = created;
    waiting.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        waiting.delete(signal);
        for (const call of [...created]) call();
      },
      { once: true },
    );
  }
  const entry = () => callback();
  callbacks.add(entry);
  const own = callbacks;
  return () => void own.delete(entry);
}

/** A signal of one's own that aborts with `signal` (through onAbort), and the function that lets it go. */
export function childSignal(signal: AbortSignal): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  if (signal.aborted) {
    controller.abort(signal.reason);
    return { signal: controller.signal, release: () => undefined };
  }
  const release = onAbort(signal, () => controller.abort(signal.reason));
  return { signal: controller.signal, release };
}
