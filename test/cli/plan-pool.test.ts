import { afterEach, describe, expect, it } from 'vitest';
import { campaign, type Campaign } from '../helpers/campaign.js';
import { cli } from '../helpers/in-process.js';

let c: Campaign | undefined;
afterEach(async () => {
  await c?.cleanup();
  c = undefined;
});

describe('plan of a pool of numbers, for people', () => {
  it('names every number of the pool, splits the contacts per number, and gives the pool\'s pace to a tenth', async () => {
    c = await campaign({ rows: 10, job: { channel_id: [10, 11, 14], rate: { per_second: 2 } } });
    const r = await cli(['plan', c.jobFile, '--offline', '--channel-type', 'wba', '--state-dir', c.stateDir, '--tz', 'UTC']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^plan for job cli-test: a pool of 3 numbers, 10 \(wba[^)]*\), 11 \(wba[^)]*\), 14 \(wba[^)]*\)\n/);
    const split = /\n {2}by number {8}10 (\d+), 11 (\d+), 14 (\d+); about (\d+) s at the pool's rates\n/.exec(r.stdout);
    expect(split).not.toBeNull();
    const counts = [split?.[1], split?.[2], split?.[3]].map(Number);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(10);
    const busiest = Math.max(...counts);
    expect(Number(split?.[4])).toBe(Math.ceil(busiest / 2));
    // The pool's pace: the busiest number at 2/s carries its share, the whole list at 10 / busiest × 2 per second.
    const pace = Math.round(((10 / busiest) * 2) * 10) / 10;
    expect(r.stdout).toContain(` at ${pace}/s; ends about `);
  });
});
