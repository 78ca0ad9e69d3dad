import { createFileStore } from '../../src/checkpoint/backends.js';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/api/index.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { startReceiver } from '../../src/webhook/index.js';
import { campaign, parseCsv, type Campaign } from '../helpers/campaign.js';
import { cli as runCli } from '../helpers/in-process.js';

let sim: RunningSimulator;
let api: ApiClient;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let c: Campaign;

afterEach(async () => {
  await receiver?.close();
  await api?.close();
  await sim?.close();
  await c?.cleanup();
});

describe('webhook, window and replies, end to end', () => {
  it('opens the window of a contact who wrote first (text goes instead of the template) and reports replies after the send', async () => {
    sim = await startSimulator({ seed: 1 });
    api = createApiClient({ baseUrl: sim.url, token: sim.token });
    c = await campaign({
      rows: 4,
      job: {
        message: {
          template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}', '2': '{{coupon}}' } },
          text: 'Oi {{name}}, seu cupom é {{coupon}}',
        },
      },
    });
    receiver = await startReceiver({ port: 0, secret: 'whsec-test', store: createFileStore(c.stateDir), api });
    sim.state.setWebhook({ url: receiver.url, secret: 'whsec-test' });
    const [early, late] = c.phones;

    sim.state.inbound(early!, 'Oi, tem promoção?');
    await sim.state.webhookIdle();
    await receiver.settled();

    const env = { env: { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: c.stateDir } };
    const plan = await runCli(['plan', c.jobFile, '--json'], env);
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(0);
    expect(JSON.parse(plan.stdout).planned_by_action).toEqual({ template: 3, text: 1 });

    const run = await runCli(['run', c.jobFile, '--no-progress'], env);
    expect(run.code).toBe(0);

    sim.state.inbound(late!, 'Obrigado!');
    await sim.state.webhookIdle();
    await receiver.settled();

    const report = await runCli(['report', c.jobFile], env);
    expect(report.code).toBe(0);
    const rows = parseCsv(await readFile(path.join(c.stateDir, 'cli-test', 'report.csv'), 'utf8'));
    const byPhone = new Map(rows.map((r) => [r.phone, r]));
    expect(byPhone.get(early!)).toMatchObject({ status: 'sent', action: 'text', replied_at: '' });
    expect(byPhone.get(late!)).toMatchObject({ status: 'sent', action: 'template' });
    expect(byPhone.get(late!)!.replied_at).toMatch(/^\d{4}-\d\d-\d\dT/);

    const status = await runCli(['status', c.jobFile, '--json'], env);
    expect(JSON.parse(status.stdout).replies).toEqual({ count: 1, rate: 0.25 });
  });
});
