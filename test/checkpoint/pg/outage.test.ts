/**
 * How the database store decides, after a failed statement, to run it again or give up: a lost
 * connection is waited for within the patience once the store was reached; anything else, or a store
 * never reached, gives up at once. Pure: the clock is a value.
 */
import { describe, expect, it } from 'vitest';
import { isConnectionLoss } from '../../../src/checkpoint/pg/connection-loss.js';
import { backoffMs, Outage, OutageError } from '../../../src/checkpoint/pg/outage.js';

const terminated = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
const poolerGone = new Error('Connection terminated unexpectedly');

function outage(patienceMs = 30_000) {
  const time = { now: 0 };
  return { o: new Outage(patienceMs, () => time.now, () => 1), time };
}

describe('a lost connection', () => {
  it('is told apart from an error of the statement itself', () => {
    for (const err of [terminated, refused, poolerGone, { code: '57P03' }, { code: '08006' }, { code: 'ECONNRESET' }, new AggregateError([refused]), new Error('Client has encountered a connection error and is not queryable')]) {
      expect(isConnectionLoss(err), String((err as { code?: string }).code ?? (err as Error).message)).toBe(true);
    }
    for (const err of [{ code: '28P01' }, { code: '42501' }, { code: '23505' }, { code: '40P01' }, new Error('Cannot use a pool after calling end on the pool'), undefined, 'text']) {
      expect(isConnectionLoss(err)).toBe(false);
    }
  });
});

describe('the store waited for', () => {
  it('never waits for a store it never connected to: a wrong URL or a server down at the start is told at once', () => {
    const { o } = outage();
    expect(o.failed(refused, 0)).toEqual({ kind: 'give_up', error: refused });
  });

  it('runs a statement whose connection was lost again, once the store was reached, with waits that grow and never pass the patience', () => {
    const { o, time } = outage(1_000);
    o.connected();
    const waits: number[] = [];
    for (let attempt = 0; ; attempt += 1) {
      const next = o.failed(poolerGone, attempt);
      if (next.kind === 'give_up') {
        expect(next.error).toBeInstanceOf(OutageError);
        expect((next.error as OutageError).last).toBe(poolerGone);
        expect((next.error as OutageError).waitedMs).toBe(1_000);
        break;
      }
      waits.push(next.waitMs);
      time.now += next.waitMs;
    }
    expect(waits).toEqual([100, 200, 400, 300]);
  });

  it('shares one outage between the statements waiting, and ends it at the first statement that goes through', () => {
    const { o, time } = outage(1_000);
    o.ok();
    expect(o.failed(terminated, 0).kind).toBe('retry');
    time.now = 900;
    // Another statement failing now has waited as long as the first.
    expect(o.failed(terminated, 0)).toEqual({ kind: 'retry', waitMs: 100 });
    o.ok();
    time.now = 5_000;
    expect(o.failed(terminated, 0)).toEqual({ kind: 'retry', waitMs: 100 });
  });

  it('gives up at once on an error of the statement itself, and never waits with a patience of 0', () => {
    const { o } = outage();
    o.ok();
    const permission = { code: '42501' };
    expect(o.failed(permission, 0)).toEqual({ kind: 'give_up', error: permission });
    const none = outage(0).o;
    none.ok();
    expect(none.failed(terminated, 0)).toEqual({ kind: 'give_up', error: terminated });
  });

  it('waits 100 ms first, doubling up to 2 s, with jitter that halves it at most', () => {
    expect([0, 1, 2, 3, 4, 5, 20].map((a) => backoffMs(a, () => 1))).toEqual([100, 200, 400, 800, 1_600, 2_000, 2_000]);
    expect(backoffMs(5, () => 0)).toBe(1_000);
    expect(backoffMs(0, () => 0)).toBe(50);
  });
});
