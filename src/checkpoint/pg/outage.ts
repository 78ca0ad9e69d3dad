/**
 * How a database store rides out a lost connection. Once the store has been reached, a statement
 * that fails because its connection was lost (`connection-loss.ts`) is run again on a new connection,
 * after a short wait that grows (100 ms, doubling up to 2 s, with jitter), for as long as the store has
 * been unreachable for less than the patience (default 30 s): a dropped session or a pooler's restart
 * only pauses the work. Every statement the store runs is safe to run twice (each write carries its
 * records' own ids), so running one again after an unknown outcome writes nothing twice.
 *
 * The outage is the store's, not a statement's: it starts at the first lost connection after a
 * statement went through, every statement waiting meanwhile shares its clock, and the first statement
 * that goes through ends it. Past the patience every statement gives up at once with `OutageError`.
 * A store this process never connected to is not waited for: a wrong URL or a server that is down
 * when a command starts is told at once.
 */
import { isConnectionLoss } from './connection-loss.js';

export const DEFAULT_PATIENCE_SECONDS = 30;

const FIRST_WAIT_MS = 100;
const LONGEST_WAIT_MS = 2_000;

/** The store stayed unreachable for the whole patience: the last connection error, and how long it was waited for. */
export class OutageError extends Error {
  constructor(
    readonly last: unknown,
    readonly waitedMs: number,
  ) {
    super(`the store stayed unreachable for ${Math.round(waitedMs / 1000)} s`, { cause: last });
    this.name = 'OutageError';
  }
}

/** After a failed statement: run it again after `waitMs`, or give up with `error` (the statement's own, or an OutageError). */
export type AfterFailure = { kind: 'retry'; waitMs: number } | { kind: 'give_up'; error: unknown };

/** The wait before try `attempt + 1` (attempt counts from 0): doubling from 100 ms up to 2 s, times 0.5 to 1. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** Math.min(attempt, 10));
  return Math.max(FIRST_WAIT_MS / 2, Math.round(base * (0.5 + random() / 2)));
}

export class Outage {
  private reached = false;
  /** When (the clock's ms) the store was first found unreachable since the last statement that went through. */
  private since: number | undefined;

  constructor(
    private readonly patienceMs: number,
    private readonly clock: () => number,
    private readonly random: () => number = Math.random,
  ) {}

  /** A connection was made: the store is there to be waited for when it goes away. */
  connected(): void {
    this.reached = true;
  }

  /** A statement went through: the store is reachable, any outage is over. */
  ok(): void {
    this.reached = true;
    this.since = undefined;
  }

  /** What to do after a statement failed with `err` on try `attempt` (from 0). */
  failed(err: unknown, attempt: number): AfterFailure {
    if (this.patienceMs <= 0 || !this.reached || !isConnectionLoss(err)) return { kind: 'give_up', error: err };
    const now = this.clock();
    this.since ??= now;
    const waited = now - this.since;
    if (waited >= this.patienceMs) return { kind: 'give_up', error: new OutageError(err, waited) };
    return { kind: 'retry', waitMs: Math.min(backoffMs(attempt, this.random), this.patienceMs - waited) };
  }
}
