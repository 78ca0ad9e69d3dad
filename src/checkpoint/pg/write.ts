/**
 * How the store-wide lists talk to the database: a read that fails is the store being unavailable;
 * a write is one transaction, tried again when the database broke a deadlock between two writers
 * (rows of a batch are written in key order, so that is rare), and a write that fails is the port's
 * write error. A transaction body must leave nothing behind in memory: it may run more than once.
 */
import type { Db, Queryable } from './db.js';
import { unavailable, writeFailed } from './errors.js';

/** A deadlock broken, a serialization failure: nothing was written, the same transaction may run again. */
const RETRYABLE = new Set(['40P01', '40001']);
const ATTEMPTS = 5;

export async function writeTx<T>(db: Db, what: string, body: (client: Queryable) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await db.tx(body);
    } catch (err) {
      const code = (err as { code?: unknown } | undefined)?.code;
      if (attempt < ATTEMPTS && typeof code === 'string' && RETRYABLE.has(code)) continue;
      throw writeFailed(err, db.url, what);
    }
  }
}

export async function readDb<T>(db: Db, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (err) {
    throw unavailable(err, db.url);
  }
}

/** Runs the calls one after the other (a fold read twice at once would apply the same rows twice). */
export function serially(): <T>(body: () => Promise<T>) => Promise<T> {
  let last: Promise<unknown> = Promise.resolve();
  return <T>(body: () => Promise<T>): Promise<T> => {
    const run = last.then(body);
    last = run.catch(() => undefined);
    return run;
  };
}

/**
 * Group commit: each call waits for a batch; while one batch is being written, the calls made
 * meanwhile gather into the next. `write` answers one result per item, in order.
 */
export function batched<I, O>(write: (items: I[]) => Promise<O[]>): { add(item: I): Promise<O>; idle(): Promise<void> } {
  let queue: Array<{ item: I; resolve: (o: O) => void; reject: (err: unknown) => void }> = [];
  let pumping: Promise<void> | undefined;
  const pump = async (): Promise<void> => {
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      try {
        const results = await write(batch.map((b) => b.item));
        batch.forEach((b, i) => b.resolve(results[i] as O));
      } catch (err) {
        for (const b of batch) b.reject(err);
      }
    }
    pumping = undefined;
  };
  return {
    add(item) {
      return new Promise<O>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        pumping ??= Promise.resolve().then(pump);
      });
    },
    async idle() {
      while (pumping) await pumping;
    },
  };
}
