import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { outcomeJson, prepare, runJob } from '../../src/app/index.js';
import { provided, RESUME, RUN } from './helpers.js';

describe('opted_out (131050): failed, never retried, and the phone handed to the suppression list', () => {
  it('calls onOptedOut with the phone once, sends it nothing more, and lists it in the outcome', async () => {
    const p = await provided({ rows: 5 });
    const stopped = p.phones[1]!;
    p.sim.state.stopMarketing(stopped);
    const suppressed: Array<{ phone: string; reason: string }> = [];

    const outcome = await p.run({ onOptedOut: async (phone, reason) => void suppressed.push({ phone, reason }) });
    expect(suppressed).toEqual([{ phone: stopped, reason: expect.stringContaining('131050') }]);
    expect(outcome.optedOut).toEqual([stopped]);
    expect(outcomeJson(outcome).opted_out).toEqual([stopped]);
    expect(p.sendsTo(stopped)).toHaveLength(1);
    expect((await p.states()).get(stopped)).toMatchObject({ status: 'failed', retryable: false, code: 131050, errorClass: 'opted_out' });
    expect(outcome.thisRun.sent).toBe(4);

    await p.run({ command: 'resume', mode: RESUME, onOptedOut: async (phone, reason) => void suppressed.push({ phone, reason }) });
    expect(p.sendsTo(stopped)).toHaveLength(1);
    expect(suppressed).toHaveLength(1);
  });

  it('puts the phone on the suppression list (source provider), so the next job of the state folder skips it', async () => {
    const p = await provided({ rows: 4 });
    const stopped = p.phones[2]!;
    p.sim.state.stopMarketing(stopped);
    await p.run();
    const entry = (await p.store.suppressions()).get(stopped);
    expect(entry).toMatchObject({ source: 'provider', reason: expect.stringContaining('131050') });

    const other = path.join(p.campaign.dir, 'next-job.json');
    const job = JSON.parse(await readFile(p.campaign.jobFile, 'utf8')) as Record<string, unknown>;
    // The frequency cap off: this test is about the suppression list, not about holding back the others the first job messaged.
    await writeFile(other, JSON.stringify({ ...job, name: 'next-campaign', limits: { min_hours_between_messages: 0, repeat_message: true } }));
    const next = await prepare(other, { api: p.api });
    const outcome = await runJob(next, { store: p.store, api: p.api, command: 'run', mode: RUN, owner: { pid: process.pid } });
    expect(outcome.summary.byAction['skip:suppressed']).toBe(1);
    expect(outcome.summary.byStatus.sent).toBe(3);
    expect(p.sendsTo(stopped)).toHaveLength(1);
  });
});
