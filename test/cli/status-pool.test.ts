import { writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileStore } from '../../src/checkpoint/backends.js';
import { campaign, type Campaign } from '../helpers/campaign.js';
import { cli } from '../helpers/in-process.js';

const made: Campaign[] = [];

afterEach(async () => {
  for (const c of made.splice(0)) await c.cleanup();
});

const AT = '2026-11-25T17:20:03.000Z';
const SPAM = '(#131048) Spam rate limit hit';

/** A pool's job: one contact sent from 10, one sent from 11 after its request from 14 was refused, one failed on 11; its last run drained 14. */
async function poolJob(): Promise<Campaign> {
  const c = await campaign({ rows: 3, job: { channel_id: [10, 11, 14] } });
  made.push(c);
  const store = createFileStore(c.stateDir);
  const job = await store.openJob('cli-test', { pid: process.pid, startedAt: AT, command: 'run' });
  const [a, b, d] = c.phones as [string, string, string];
  const sent = (phone: string, channel: number, n: number) =>
    job.record({ t: 'sent', phone, via: 'start', action: 'template', conversation_id: `c${n}`, message_id: `m${n}`, channel_id: channel, at: AT });
  const attempt = (phone: string, channel: number) => job.record({ t: 'attempt', phone, via: 'start', action: 'template', channel_id: channel, at: AT });
  await attempt(a, 10);
  await sent(a, 10, 1);
  await attempt(b, 14);
  await job.record({ t: 'failed', phone: b, via: 'start', action: 'template', status: 502, retryable: true, error: SPAM, code: 131048, at: AT });
  await attempt(b, 11);
  await sent(b, 11, 2);
  await attempt(d, 11);
  await job.record({ t: 'failed', phone: d, via: 'start', action: 'template', status: 502, retryable: false, error: 'bad', at: AT });
  await job.close();
  const numbers = [
    { channel_id: 10, sent: 1, failed: 0, per_second: 10, drained: null },
    { channel_id: 11, sent: 1, failed: 1, per_second: 10, rate_reached_per_second: 9.6, drained: null },
    { channel_id: 14, sent: 0, failed: 0, per_second: 10, drained: { at: AT, code: 131048, error: SPAM } },
  ];
  await writeFile(store.jobFiles('cli-test').summary, JSON.stringify({ job: 'cli-test', numbers }));
  return c;
}

describe('status of a pool of numbers', () => {
  it('prints per number the contacts sent and failed, and when and why its last run drained one', async () => {
    const c = await poolJob();
    const { stdout } = await cli(['status', c.jobFile, '--state-dir', c.stateDir, '--tz', 'Europe/Lisbon']);
    expect(stdout).toContain('  number 10: 1 sent, 0 failed\n');
    expect(stdout).toContain('  number 11: 1 sent, 1 failed, 9.6/s reached in the last run\n');
    expect(stdout).toContain(`  number 14: 0 sent, 0 failed; drained in the last run at 2026-11-25 17:20:03 Europe/Lisbon (131048): ${SPAM}\n`);
  });

  it('gives the numbers in --json', async () => {
    const c = await poolJob();
    const { stdout } = await cli(['status', c.jobFile, '--state-dir', c.stateDir, '--json']);
    const json = JSON.parse(stdout) as { numbers: unknown };
    expect(json.numbers).toEqual([
      { channel_id: 10, sent: 1, failed: 0, rate_reached_per_second: null, drained: null },
      { channel_id: 11, sent: 1, failed: 1, rate_reached_per_second: 9.6, drained: null },
      { channel_id: 14, sent: 0, failed: 0, rate_reached_per_second: null, drained: { at: AT, code: 131048, error: SPAM } },
    ]);
  });
});
