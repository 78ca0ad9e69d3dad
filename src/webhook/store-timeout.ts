/**
 * The receiver's budget for one store operation: the platform waits 10 s for an answer and never
 * retries, and a store behind a pooler whose database is down does not fail, it waits. An operation
 * that has not answered within the budget counts as failed (the receiver then keeps the event in its
 * spool); the operation itself goes on, and may still succeed later, which the spool's re-apply
 * tolerates (recording is by message id).
 */

/** The store did not answer within the receiver's budget. */
export class StoreTimeoutError extends Error {
  constructor(readonly ms: number, what: string) {
    super(`the store did not answer within ${ms / 1000} s (${what})`);
    this.name = 'StoreTimeoutError';
  }
}

/** `work`'s outcome, or a StoreTimeoutError after `ms`. */
export function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreTimeoutError(ms, what)), ms);
  });
  // A late rejection of the abandoned work is nobody's: not an unhandled rejection.
  work.catch(() => undefined);
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
