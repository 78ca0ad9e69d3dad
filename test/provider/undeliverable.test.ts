import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../helpers/campaign.js';
import { provided, RESUME } from './helpers.js';

describe('undeliverable (131026) and bad_request (131008…): failed, never retried', () => {
  it('sends one start-whatsapp to a number not on WhatsApp, no retry, and resume leaves it alone', async () => {
    const p = await provided({ rows: 6 });
    const dead = p.phones[2]!;
    p.sim.state.forceProviderError(dead, 131026);

    const outcome = await p.run();
    expect(p.sendsTo(dead)).toHaveLength(1);
    expect(p.sendsTo(dead)[0]!.path).toMatch(/start-whatsapp$/);
    expect(outcome.thisRun).toMatchObject({ sent: 5, failed: 1 });
    const state = (await p.states()).get(dead);
    expect(state).toMatchObject({ status: 'failed', retryable: false, code: 131026, errorClass: 'undeliverable', httpStatus: 502 });
    expect(state?.status === 'failed' && state.error).toMatch(/^the number cannot receive WhatsApp messages \(131026\)/);

    const resumed = await p.run({ command: 'resume', mode: RESUME });
    expect(p.sendsTo(dead)).toHaveLength(1);
    expect(resumed.thisRun.failed).toBe(0);

    const rows = parseCsv(await readFile(outcome.files.report, 'utf8'));
    const row = rows.find((r) => r.phone === dead);
    expect(row).toMatchObject({ status: 'failed', error_code: '131026', error_class: 'undeliverable' });
    expect(row?.error).toContain('cannot receive WhatsApp messages');
    expect(rows.filter((r) => r.status === 'sent').every((r) => r.error_code === '' && r.error_class === '')).toBe(true);
  });

  it('gives up on a contact whose data the provider refuses (131008) after one request', async () => {
    const p = await provided({ rows: 3 });
    const bad = p.phones[0]!;
    p.sim.state.forceProviderError(bad, 131008);

    const outcome = await p.run();
    expect(p.sendsTo(bad)).toHaveLength(1);
    expect((await p.states()).get(bad)).toMatchObject({ status: 'failed', retryable: false, code: 131008, errorClass: 'bad_request' });
    expect(outcome.thisRun.sent).toBe(2);
  });

  it('leaves undeliverable numbers out of the failure-ratio guard: a list of 60 % dead numbers runs to its end', async () => {
    const p = await provided({ rows: 100, job: { limits: { max_failure_ratio: 0.5 } } });
    const dead = p.phones.filter((_, i) => i % 5 < 3);
    p.sim.state.forceProviderError(dead, 131026);

    const outcome = await p.run();
    expect(outcome.stopped).toBeUndefined();
    expect(outcome.thisRun).toMatchObject({ sent: 40, failed: 60 });
    expect(p.sends()).toHaveLength(100);
  });

  it('still stops on refusals that say something about the campaign: 60 % refused data stops the run', async () => {
    const p = await provided({ rows: 100, job: { limits: { max_failure_ratio: 0.5 }, rate: { per_second: 200, concurrency: 1 } } });
    p.sim.state.forceProviderError(p.phones.filter((_, i) => i % 5 < 3), 131008);

    const outcome = await p.run();
    expect(outcome.stopped?.reason).toBe('failure_ratio');
    expect(p.sends().length).toBeLessThan(100);
  });
});
