/**
 * The receiver's health, for a load balancer's or Kubernetes' probe on GET /healthz: 200 while it can
 * take events (recording them; or keeping them in its spool while the store
 * is down), 503 with one line of why when it cannot. Whether the store can be used is the store's own
 * `ping`; the answer never carries a password (the store's sentences name host, port and database).
 */
import { StoreUnavailableError, StoreWriteError, type StateStore } from '../checkpoint/index.js';

/** What the store said at the last check: up, or why not. */
export type StoreCheck = { up: true } | { up: false; why: string };

/** Whether the spool can take events while the store is down (`--spool`). */
export interface SpoolCheck {
  ready: boolean;
  /** Why it cannot, when it cannot (a full disk). */
  why?: string;
}

/** What the receiver can do now, and why, in one line. */
export type ReceiverHealth =
  | { state: 'recording'; storeUp: true; reason: string }
  | { state: 'spooling'; storeUp: false; reason: string }
  | { state: 'down'; storeUp: false; reason: string };

/**
 * The receiver's health from the store's check and its spool's: recording while the store answers;
 * spooling (healthy: a probe must not restart a receiver that holds events through an outage) while
 * it does not and a spool takes the events; down otherwise. Pure.
 */
export function decideHealth(store: StoreCheck, spool?: SpoolCheck): ReceiverHealth {
  if (store.up) return { state: 'recording', storeUp: true, reason: 'recording events; the store is reachable' };
  if (spool?.ready === true) return { state: 'spooling', storeUp: false, reason: `spooling events until the store is back; the store is unreachable: ${store.why}` };
  const spoolWhy = spool?.why !== undefined ? ` (and the spool cannot take them: ${spool.why})` : '';
  return { state: 'down', storeUp: false, reason: `cannot take events${spoolWhy}; the store is unreachable: ${store.why}` };
}

/** The HTTP status of a health: 503 only when the receiver cannot take events. */
export function healthStatus(health: ReceiverHealth): 200 | 503 {
  return health.state === 'down' ? 503 : 200;
}

/** GET /healthz's body: one line, `ok: …` or `unhealthy: …`. */
export function healthLine(health: ReceiverHealth): string {
  return `${health.state === 'down' ? 'unhealthy' : 'ok'}: ${health.reason}\n`;
}

/** What the receiver asks for its health (and the metrics for `outreach_store_up`). */
export interface HealthSource {
  check(): Promise<ReceiverHealth>;
}

export interface StoreHealthOptions {
  /** A ping that has not answered by then counts as down (default 2,000 ms: inside a probe's timeout). */
  timeoutMs?: number;
  /** A check this recent is answered again without a ping (default 1,000 ms: a probe and a scrape together ping once). */
  cacheMs?: number;
  clock?: () => number;
  /** The spool's state; without it a store down means the receiver cannot take events. */
  spool?: () => SpoolCheck;
}

/** The health of a receiver over `store`: concurrent checks share one ping, bounded by `timeoutMs`. */
export function storeHealth(store: Pick<StateStore, 'ping'>, options: StoreHealthOptions = {}): HealthSource {
  const timeoutMs = options.timeoutMs ?? 2_000;
  const cacheMs = options.cacheMs ?? 1_000;
  const clock = options.clock ?? Date.now;
  let last: { at: number; check: StoreCheck } | undefined;
  let pinging: Promise<StoreCheck> | undefined;

  const ping = async (): Promise<StoreCheck> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<StoreCheck>((resolve) => {
      timer = setTimeout(() => resolve({ up: false, why: `it did not answer within ${timeoutMs / 1000} s` }), timeoutMs);
      timer.unref();
    });
    const answer = store.ping().then(
      (): StoreCheck => ({ up: true }),
      (err: unknown): StoreCheck => ({ up: false, why: whyDown(err) }),
    );
    try {
      return await Promise.race([answer, late]);
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    async check() {
      const now = clock();
      if (last === undefined || now - last.at >= cacheMs) {
        pinging ??= ping().finally(() => (pinging = undefined));
        last = { at: now, check: await pinging };
      }
      return decideHealth(last.check, options.spool?.());
    },
  };
}

/** Why the store is down, in one line: the store's problem and its fix, without the step a command adds after it ("then run again"). */
function whyDown(err: unknown): string {
  if (err instanceof StoreUnavailableError || err instanceof StoreWriteError) return `${err.problem}; ${err.fix}`;
  return err instanceof Error ? err.message : String(err);
}
