import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/index.js';
import { suppressPhones } from '../../src/app/index.js';
import { createFileStore } from '../../src/checkpoint/backends.js';
import { startReceiver, sync, type Receiver } from '../../src/webhook/index.js';
import { bench, byPhone, phone, type Bench } from './helpers.js';

let b: Bench;
let receiver: Receiver | undefined;
beforeEach(async () => {
  b = await bench();
});
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
  await b.close();
});

/** The receiver on the simulator's webhook, writing to the bench's state folder. */
async function listen(): Promise<Receiver> {
  const secret = randomBytes(8).toString('hex');
  receiver = await startReceiver({ port: 0, secret, store: b.store, api: b.api });
  b.sim.state.setWebhook({ url: receiver.url, secret });
  return receiver;
}

async function delivered(): Promise<void> {
  await b.sim.state.webhookIdle();
  await receiver?.settled();
}

describe('opt-outs: the suppression list, STOP by webhook, PARAR by sync, START', () => {
  it('never starts a suppressed phone, one that replied STOP through the webhook, or one that replied PARAR caught only by sync; START after STOP restores it', async () => {
    const [byHand, stop, parar, stopThenStart, plain] = [0, 1, 2, 3, 4].map((i) => phone(i));
    const jobFile = await b.job('promo', [byHand, stop, parar, stopThenStart, plain].map((p) => ({ phone: p ?? '' })));

    await suppressPhones(b.store, [byHand ?? ''], { reason: 'asked the call centre' });
    await listen();
    b.sim.state.inbound(stop ?? '', 'STOP');
    b.sim.state.inbound(stopThenStart ?? '', ' Stop! ');
    await delivered();
    b.sim.state.inbound(stopThenStart ?? '', 'START');
    await delivered();
    // The receiver is down: only sync hears this one.
    b.sim.state.setWebhook(undefined);
    b.sim.state.inbound(parar ?? '', 'Párar');
    const synced = await sync({ api: b.api, store: b.store });
    expect(synced.optOuts).toBe(1);

    const list = await b.store.suppressions();
    expect(list.get(stop ?? '')).toMatchObject({ source: 'reply_keyword', reason: 'replied "STOP"' });
    expect(list.get(parar ?? '')).toMatchObject({ source: 'reply_keyword' });
    expect(list.get(stopThenStart ?? '')).toBeUndefined();

    const outcome = await b.run(await b.prepare(jobFile));
    expect(outcome.notDone).toBe(0);
    expect(outcome.thisRun).toMatchObject({ sent: 2, skipped: 3 });
    expect([...b.started()].sort()).toEqual([stopThenStart, plain].sort());
    const rows = byPhone(await b.report('promo'));
    for (const p of [byHand, stop, parar]) expect(rows.get(p ?? '')).toMatchObject({ status: 'skipped', action: 'skip:suppressed' });
    expect(rows.get(stopThenStart ?? '')?.status).toBe('sent');
  });

  it('acts at the next sync on a STOP the receiver recorded while the phone was unknown to it', async () => {
    const p = phone(9);
    const jobFile = await b.job('first', [{ phone: p }]);
    await b.run(await b.prepare(jobFile));
    // A receiver with no token and no job phones loaded: it records the STOP but cannot tell whose it is.
    const secret = randomBytes(8).toString('hex');
    receiver = await startReceiver({ port: 0, secret, store: b.store });
    b.sim.state.setWebhook({ url: receiver.url, secret });
    b.sim.state.inbound(p, 'STOP');
    await delivered();
    expect((await b.store.suppressions()).get(p)).toBeUndefined();
    const synced = await sync({ api: b.api, store: b.store });
    expect(synced.optOuts).toBe(1);
    expect((await b.store.suppressions()).get(p)).toMatchObject({ source: 'reply_keyword', reason: 'replied "STOP"' });
  });

  it('never lets START undo a suppression made by hand', async () => {
    const p = phone(7);
    await suppressPhones(b.store, [p], {});
    await listen();
    b.sim.state.inbound(p, 'STOP');
    await delivered();
    b.sim.state.inbound(p, 'voltar');
    await delivered();
    expect((await b.store.suppressions()).get(p)).toMatchObject({ source: 'manual' });
  });

  it('stops the message of a contact whose STOP arrives while the campaign runs', async () => {
    const phones = [0, 1, 2, 3, 4, 5].map((i) => phone(i, 1));
    const last = phones[5] ?? '';
    const jobFile = await b.job('midrun', phones.map((p) => ({ phone: p })), { rate: { per_second: 500, concurrency: 1 } });
    await listen();
    let heard = false;
    // The reply arrives (and the receiver has it) while the second request is on its way.
    const api: ApiClient = {
      ...b.api,
      async startWhatsapp(body, options) {
        if (!heard && body.phone === phones[1]) {
          heard = true;
          b.sim.state.inbound(last, 'unsubscribe');
          await delivered();
        }
        return b.api.startWhatsapp(body, options);
      },
    };
    const outcome = await b.run(await b.prepare(jobFile), { api, refreshEveryMs: 0 });
    expect(heard).toBe(true);
    expect(b.started().has(last)).toBe(false);
    expect(outcome.thisRun).toMatchObject({ sent: 5, skipped: 1 });
    expect(byPhone(await b.report('midrun')).get(last)?.action).toBe('skip:suppressed');
  });
});

describe('a STOP from another process while the run goes', () => {
  it('skips the contacts after it when the STOP reaches the store through another opening of the state folder (the receiver, suppress add)', async () => {
    const phones = [0, 1, 2, 3, 4, 5].map((i) => phone(i, 3));
    const [byReply, byHand] = [phones[4] ?? '', phones[5] ?? ''];
    const jobFile = await b.job('two-stores', phones.map((p) => ({ phone: p })), { rate: { per_second: 500, concurrency: 1 } });
    // As two processes have: the receiver and `suppress add` write through their own opening of the folder.
    const other = createFileStore(b.stateDir);
    const secret = randomBytes(8).toString('hex');
    receiver = await startReceiver({ port: 0, secret, store: other, api: b.api });
    b.sim.state.setWebhook({ url: receiver.url, secret });
    let starts = 0;
    // When the second request arrives, the STOP and the suppression are durable in the folder before it goes on.
    const api: ApiClient = {
      ...b.api,
      async startWhatsapp(body, options) {
        if (++starts === 2) {
          b.sim.state.inbound(byReply, 'STOP');
          await delivered();
          await suppressPhones(other, [byHand], { reason: 'asked the call centre' });
        }
        return b.api.startWhatsapp(body, options);
      },
    };
    const outcome = await b.run(await b.prepare(jobFile), { api, refreshEveryMs: 0 });
    expect([...b.started()].sort()).toEqual(phones.slice(0, 4).sort());
    expect(outcome.thisRun).toMatchObject({ sent: 4, skipped: 2 });
    const rows = byPhone(await b.report('two-stores'));
    expect(rows.get(byReply)).toMatchObject({ status: 'skipped', action: 'skip:suppressed' });
    expect(rows.get(byHand)).toMatchObject({ status: 'skipped', action: 'skip:suppressed' });
  });
});

describe('consent: require_opt_in', () => {
  it('sends only to contacts whose opt-in cell is a clear yes and skips the rest as no_opt_in', async () => {
    const cells = ['yes', 'Sim', 'x', '2025-03-01', '', 'no', 'maybe', '0'];
    const rows = cells.map((consent, i) => ({ phone: phone(i, 2), consent }));
    const jobFile = await b.job('consent', rows, { columns: { opt_in: 'consent' }, require_opt_in: true });
    const outcome = await b.run(await b.prepare(jobFile));
    expect(outcome.notDone).toBe(0);
    expect([...b.started()].sort()).toEqual(rows.slice(0, 4).map((r) => r.phone).sort());
    const report = byPhone(await b.report('consent'));
    for (const r of rows.slice(4)) expect(report.get(r.phone)?.action).toBe('skip:no_opt_in');
  });
});
