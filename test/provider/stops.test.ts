import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { outcomeJson } from '../../src/app/index.js';
import { outcomeExitCode } from '../../src/cli/exit.js';
import { accountStopMessage } from '../../src/run/index.js';
import { parseCsv } from '../helpers/campaign.js';
import { cli } from '../helpers/in-process.js';
import { provided, RESUME } from './helpers.js';

const CONCURRENCY = 4;

describe('account (131048, 368, 131031, 131042): the whole run stops, exit 3', () => {
  it('stops on the spam limit after at most `concurrency` more requests, leaves the rest pending, and resume continues', async () => {
    const p = await provided({ rows: 40, job: { rate: { per_second: 500, concurrency: CONCURRENCY } } });
    p.sim.state.setSpamLimit(6);

    const outcome = await p.run();
    expect(outcome.stopped).toEqual({
      reason: 'provider_account',
      message: 'the provider limits this number for spam reports (131048): check its quality rating in WhatsApp Manager before sending more',
    });
    expect(outcomeExitCode(outcome)).toBe(3);
    expect(outcomeJson(outcome)).toMatchObject({ stopped: 'provider_account', stop_message: outcome.stopped?.message });
    const refused = p.sends().filter((r) => r.status === 502);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBeLessThanOrEqual(CONCURRENCY);
    expect(p.sends()).toHaveLength(6 + refused.length);
    expect(outcome.thisRun.sent).toBe(6);
    expect(outcome.pending).toBe(40 - 6 - refused.length);
    for (const s of (await p.states()).values()) {
      if (s.status !== 'sent') expect(s).toMatchObject({ status: 'failed', retryable: true, code: 131048, errorClass: 'account' });
    }
    expect(outcome.summary.failureClasses).toEqual([{ class: 'account', count: refused.length, example: expect.stringContaining('(#131048)') }]);

    // The quality rating recovers; resume sends the rest, the refused ones on their conversations.
    p.sim.state.setSpamLimit(null);
    const resumed = await p.run({ command: 'resume', mode: RESUME });
    expect(resumed.stopped).toBeUndefined();
    expect(resumed.summary.byStatus).toMatchObject({ sent: 40, failed: 0, pending: 0 });
    for (const phone of p.phones) expect(p.sim.state.startWhatsappCount(phone)).toBe(1);
  });

  it.each([368, 131031, 131042] as const)('stops on %i with its own sentence', async (code) => {
    const p = await provided({ rows: 10, job: { rate: { per_second: 500, concurrency: 1 } } });
    p.sim.state.forceProviderError(p.phones[3]!, code);

    const outcome = await p.run();
    expect(outcome.stopped).toEqual({ reason: 'provider_account', message: accountStopMessage(code, '') });
    expect(p.sends()).toHaveLength(4);
    expect(outcome.pending).toBe(6);
  });
});

describe('template (132000…132016): the whole run stops with the template named, exit 3', () => {
  it('stops on a paused template (132015) with its sentence; nothing more is sent; resume continues', async () => {
    const p = await provided({ rows: 20, job: { rate: { per_second: 500, concurrency: CONCURRENCY } } });
    p.sim.state.forceProviderError(p.phones[5]!, 132015);

    const outcome = await p.run();
    expect(outcome.stopped?.reason).toBe('provider_template');
    expect(outcome.stopped?.message).toMatch(
      /^the provider refuses template promo_bf \(pt_BR\): paused for low quality \(132015\); nothing more was sent; /,
    );
    expect(outcomeExitCode(outcome)).toBe(3);
    expect(p.sends().length).toBeLessThanOrEqual(6 + CONCURRENCY);
    expect(outcome.pending).toBeGreaterThan(0);

    p.sim.state.clearProviderError();
    const resumed = await p.run({ command: 'resume', mode: RESUME });
    expect(resumed.summary.byStatus).toMatchObject({ sent: 20, pending: 0 });
  });

  it('exits 3 at the command line and prints the sentence', async () => {
    const p = await provided({ rows: 5, job: { rate: { per_second: 500, concurrency: 1 } } });
    p.sim.state.forceProviderError(p.phones[0]!, 132001);
    const env = { OUTREACH_BASE_URL: p.sim.url, OUTREACH_TOKEN: p.sim.token, OUTREACH_STATE_DIR: p.campaign.stateDir };

    const r = await cli(['run', p.campaign.jobFile, '--no-progress'], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('outreach: the provider refuses template promo_bf (pt_BR): it does not exist in this language or is not approved (132001); nothing more was sent');
    // Without a terminal each line of the run's end starts with a timestamp.
    expect(r.stdout).toMatch(/failures by class\n\S+Z\s+template\s+1\s+e\.g\. the provider refuses the template \(132001\)/);
    expect(p.sends()).toHaveLength(1);

    const status = await cli(['status', p.campaign.jobFile, '--json'], { env });
    expect(JSON.parse(status.stdout).failureClasses).toEqual([{ class: 'template', count: 1, example: expect.stringContaining('132001') }]);
    const rows = parseCsv(await readFile(`${p.campaign.stateDir}/cli-test/report.csv`, 'utf8'));
    expect(rows.map((r) => [r.status, r.error_code, r.error_class])).toEqual([
      ['failed', '132001', 'template'],
      ['pending', '', ''],
      ['pending', '', ''],
      ['pending', '', ''],
      ['pending', '', ''],
    ]);
  });
});
