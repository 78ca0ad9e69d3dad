import { afterEach, describe, expect, it } from 'vitest';
import { createFileStore, type JobStore } from '../../src/checkpoint/backends.js';
import { campaign, type Campaign } from '../helpers/campaign.js';
import { cli } from '../helpers/in-process.js';

const open: JobStore[] = [];
const made: Campaign[] = [];

afterEach(async () => {
  for (const job of open.splice(0)) await job.close();
  for (const c of made.splice(0)) await c.cleanup();
});

/** A job this process runs since 2025-01-15 17:20 UTC, with one contact deferred for the messaging limit until 2025-01-16 13:20 UTC. */
async function runningJob(): Promise<Campaign> {
  const c = await campaign({ rows: 2 });
  made.push(c);
  const job = await createFileStore(c.stateDir).openJob('cli-test', { pid: process.pid, startedAt: '2025-01-15T17:20:00.000Z', command: 'run' });
  open.push(job);
  await job.record({ t: 'deferred', phone: c.phones[0]!, reason: 'daily_limit', not_before: '2025-01-16T13:20:00.000Z', line: 2, at: '2025-01-15T17:21:00.000Z' });
  return c;
}

describe('status prints times in a named zone', () => {
  it('uses the zone of --tz, naming it', async () => {
    const c = await runningJob();
    const { code, stdout } = await cli(['status', c.jobFile, '--state-dir', c.stateDir, '--tz', 'Europe/Lisbon']);
    expect(code).toBe(1);
    expect(stdout).toContain('since 2025-01-15 17:20 Europe/Lisbon');
    expect(stdout).toContain('1 deferred: daily_limit until 2025-01-16 13:20 Europe/Lisbon');
  });

  it("uses this machine's zone (TZ) when --tz is not given, naming it", async () => {
    const c = await runningJob();
    const { stdout } = await cli(['status', c.jobFile, '--state-dir', c.stateDir], { env: { TZ: 'Asia/Tokyo' } });
    expect(stdout).toContain('since 2025-01-16 02:20 Asia/Tokyo');
    expect(stdout).toContain('daily_limit until 2025-01-16 22:20 Asia/Tokyo');
  });

  it('refuses a zone it does not know with exit 2 and one sentence naming the flag and an example', async () => {
    const c = await runningJob();
    const { code, stdout, stderr } = await cli(['status', c.jobFile, '--state-dir', c.stateDir, '--tz', 'Mars/Olympus']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/--tz: "Mars\/Olympus" is not a time zone; give an IANA zone name such as --tz America\/Sao_Paulo/);
  });
});

describe('show prints recorded times in a named zone', () => {
  it('shows each request of the story to the second in the zone of --tz, naming it', async () => {
    const c = await runningJob();
    const { code, stdout } = await cli(['show', c.jobFile, c.phones[0]!, '--state-dir', c.stateDir, '--tz', 'America/Sao_Paulo']);
    expect(code).toBe(0);
    expect(stdout).toContain('2025-01-15 14:21:00 America/Sao_Paulo  deferred until 2025-01-16 10:20:00 America/Sao_Paulo: daily_limit');
    expect(stdout).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z {2}/);
  });
});
