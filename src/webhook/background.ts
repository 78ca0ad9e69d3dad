/** Work done after answering a request, tracked so `close()` and tests can wait for it. */
export interface Background {
  run(task: () => Promise<unknown>): void;
  /** Resolves when no task is running (including tasks started meanwhile). */
  settled(): Promise<void>;
}

export function createBackground(onError: (err: unknown) => void): Background {
  const running = new Set<Promise<unknown>>();
  return {
    run(task) {
      const p = task()
        .catch(onError)
        .finally(() => running.delete(p));
      running.add(p);
    },
    async settled() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
