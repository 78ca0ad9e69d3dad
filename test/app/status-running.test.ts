import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { jobStatus } from '../../src/app/index.js';
import { createFileStore, type JobStore } from '../../src/checkpoint/backends.js';
import { campaign, type Campaign } from '../helpers/campaign.js';
import { cli } from '../helpers/in-process.js';

const SINCE = '2025-01-15T17:20:00.000Z';
const open: JobStore[] = [];
const made: Campaign[] = [];

afterEach(async () => {
  for (const job of open.splice(0)) await job.close();
  for (const c of made.splice(0)) await c.cleanup();
});

/** A job whose lock `pid` holds since SINCE, with an attempt of the first contact and no answer to it (at `attemptAt`). */
async function heldJob(pid: number, attemptAt = '2025-01-15T17:20:05.000Z') {
  const c = await campaign({ rows: 3 });
  made.push(c);
  const store = createFileStore(c.stateDir);
  const job = await store.openJob('cli-test', { pid, startedAt: SINCE, command: 'run' });
  open.push(job);
  await job.record({ t: 'attempt', phone: c.phones[0]!, via: 'start', action: 'template', line: 2, at: attemptAt });
  return { c, store };
}

/** The pid of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid;
}

describe('status while a run holds the job', () => {
  it('says the job is running, by which pid on which host and since when, and counts its unanswered request as in flight', async () => {
    const { c, store } = await heldJob(process.pid);
    const status = await jobStatus(c.jobFile, { store });
    expect(status.running).toEqual({ pid: process.pid, host: hostname(), since: SINCE, command: 'run' });
    expect(status.summary.inFlight).toBe(1);
    expect(status.summary.byStatus.in_doubt).toBe(0);
    expect(status.summary.topErrors).toEqual([]);
    expect(status.notDone).toBe(3);

    const printed = await cli(['status', c.jobFile, '--state-dir', c.stateDir, '--tz', 'America/Sao_Paulo']);
    expect(printed.stdout).toContain(`running now: \`outreach run\` by pid ${process.pid} on host ${hostname()}, since 2025-01-15 14:20 America/Sao_Paulo`);
    expect(printed.stdout).toMatch(/^ {2}in flight +1 {3}sending now/m);
    expect(printed.stdout).toMatch(/^ {2}in doubt +0$/m);
    expect(printed.stdout).not.toContain('stopped while the request was in flight');
    const json = JSON.parse((await cli(['status', c.jobFile, '--state-dir', c.stateDir, '--json'])).stdout);
    expect(json).toMatchObject({ running: { pid: process.pid, since: SINCE }, inFlight: 1, byStatus: { in_doubt: 0 } });
  });

  it('keeps a request left unanswered by an earlier run in doubt while a new run holds the job', async () => {
    const { c, store } = await heldJob(process.pid, '2025-01-14T09:00:00.000Z');
    const status = await jobStatus(c.jobFile, { store });
    expect(status.running?.pid).toBe(process.pid);
    expect(status.summary).toMatchObject({ inFlight: 0, byStatus: { in_doubt: 1 } });
  });

  it('after the holder died, says nothing runs and the unanswered request is in doubt', async () => {
    const { c, store } = await heldJob(deadPid());
    const status = await jobStatus(c.jobFile, { store });
    expect(status.running).toBeUndefined();
    expect(status.summary.inFlight).toBeUndefined();
    expect(status.summary.byStatus.in_doubt).toBe(1);

    const printed = await cli(['status', c.jobFile, '--state-dir', c.stateDir]);
    expect(printed.stdout).not.toContain('running now');
    expect(printed.stdout).toMatch(/^ {2}in doubt +1 {3}may have reached the platform/m);
    expect(printed.stdout).toContain('the run stopped while the request was in flight');
  });
});
