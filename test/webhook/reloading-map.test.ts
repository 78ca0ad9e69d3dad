import { describe, expect, it } from 'vitest';
import { RELOAD_MS, reloadingMap } from '../../src/webhook/reloading-map.js';

describe('a map read from the jobs\' states, read again for a key it does not know', () => {
  it('reads again for an unknown key at most every 30 s, and keeps the last map when a read fails', async () => {
    const clock = { now: 1_000_000 };
    const reads: Array<Map<string, number> | Error> = [new Map([['a', 1]]), new Map([['a', 1], ['b', 2]]), new Error('EIO'), new Map()];
    let calls = 0;
    const map = reloadingMap(async () => {
      const next = reads[calls++];
      if (next instanceof Error || next === undefined) throw next ?? new Error('no more');
      return next;
    }, 'test keys', undefined, () => clock.now);
    await map.load();
    expect(map.get('b')).toBeUndefined();
    expect(await map.resolve('b')).toBeUndefined(); // read at load, not due again
    expect(calls).toBe(1);
    clock.now += RELOAD_MS + 1;
    expect(await map.resolve('b')).toBe(2);
    expect(calls).toBe(2);
    clock.now += RELOAD_MS + 1;
    expect(map.getOrReload('c')).toBeUndefined(); // starts a read in the background, which fails
    await map.load(); // joins the read under way
    expect(calls).toBe(3);
    expect(map.get('b')).toBe(2);
  });
});
