import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/api/index.js';
import { AppError, jobReport, jobStatus, planJob, prepare, runJob, type RunOutcome } from '../../src/app/index.js';
import { createFileStore } from '../../src/checkpoint/backends.js';
import { outcomeExitCode, userErrorExitCode } from '../../src/cli/exit.js';
import { formatRunEnd } from '../../src/cli/format/run.js';
import { formatStamp } from '../../src/cli/format/time.js';
import { rendezvousNumber } from '../../src/run/index.js';
import { startSimulator, type RunningSimulator, type SimChannel } from '../../src/sim/index.js';
import { campaign, type Campaign } from '../helpers/campaign.js';
import { watchStarts, type Leaving } from '../helpers/leaving.js';
import { sync } from '../../src/webhook/index.js';

/** Two more numbers of the company beside the seed's 10 (wba) and 11 (whatsapp). */
const MORE_NUMBERS: SimChannel[] = [
  { id: 14, name: 'Sales 2 (WhatsApp Cloud)', type: 'wba', status: 1 },
  { id: 15, name: 'Sales 3 (WhatsApp Cloud)', type: 'wba', status: 1 },
];

let sim: RunningSimulator;
let c: Campaign | undefined;
const clients: ApiClient[] = [];

afterEach(async () => {
  for (const api of clients.splice(0)) await api.close();
  await sim?.close();
  await c?.cleanup();
  c = undefined;
});

function client(): ApiClient {
  const api = createApiClient({ baseUrl: sim.url, token: sim.token });
  clients.push(api);
  return api;
}

async function setup(job: Record<string, unknown>, rows = 6): Promise<Campaign> {
  sim ??= await startSimulator({ seed: 5, channels: MORE_NUMBERS });
  c = await campaign({ rows, job });
  return c;
}

async function refusal(jobFile: string): Promise<AppError> {
  const err = await prepare(jobFile, { api: client() }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

const leaving: Leaving[] = [];
const watched = (api: ApiClient): ApiClient => watchStarts(api, leaving);

export async function runPool(camp: Campaign, command: 'run' | 'resume' = 'run'): Promise<RunOutcome> {
  const prepared = await prepare(camp.jobFile, { api: client() });
  return runJob(prepared, {
    store: createFileStore(camp.stateDir),
    api: watched(client()),
    command,
    mode: { retryFailed: command === 'resume', retryInDoubt: false },
    owner: { pid: process.pid },
  });
}

describe('a pool of numbers in the job (channel_id as a list)', () => {
  it('refuses a pool mixing official and web-session numbers before anything is sent (exit 2), naming them', async () => {
    sim = await startSimulator({ seed: 5, channels: MORE_NUMBERS });
    const camp = await setup({ channel_id: [10, 12] });
    const err = await refusal(camp.jobFile);
    expect(err.message).toMatch(/mixes numbers of the official API \(10 \(wba.*\) with web-session numbers \(12 \(ww/);
    expect(userErrorExitCode(err)).toBe(2);
    expect(sim.state.counters.byEndpoint['POST /chat/conversations/start-whatsapp'] ?? 0).toBe(0);
  });

  it('refuses an unknown and an inactive number of a pool, naming each (exit 2)', async () => {
    sim = await startSimulator({ seed: 5, channels: MORE_NUMBERS });
    const camp = await setup({ channel_id: [10, 99, 13] });
    const err = await refusal(camp.jobFile);
    expect(err.message).toContain('channel_id 99 is not a channel of company 1');
    expect(err.message).toContain('channel_id 13: channel 13 (wba, Old number, inactive) is inactive');
    expect(userErrorExitCode(err)).toBe(2);
  });

  it('refuses a number listed twice, naming it (exit 2)', async () => {
    sim = await startSimulator({ seed: 5, channels: MORE_NUMBERS });
    const camp = await setup({ channel_id: [10, 14, 10] });
    const err = await prepare(camp.jobFile, { api: client() }).then(
      () => undefined,
      (e: unknown) => e as Error & { kind?: string },
    );
    expect(err?.message).toContain('channel_id: lists 10 more than once');
    expect(err && userErrorExitCode(err)).toBe(2);
  });

  it('accepts one id as before, and a pool of numbers of one kind (wba with whatsapp)', async () => {
    sim = await startSimulator({ seed: 5, channels: MORE_NUMBERS });
    const one = await prepare((await setup({ channel_id: 10 })).jobFile, { api: client() });
    expect(one.pool.map((ch) => ch.id)).toEqual([10]);
    await c?.cleanup();
    const pool = await prepare((await setup({ channel_id: [10, 11, 14] })).jobFile, { api: client() });
    expect(pool.pool.map((ch) => ch.id)).toEqual([10, 11, 14]);
    expect(pool.job.channels).toEqual([10, 11, 14]);
    expect(pool.channel.id).toBe(10);
  });
});

const START = 'POST /chat/conversations/start-whatsapp';
/** Each accepted start-whatsapp's phone and number (channel_id), in order. */
function acceptedStarts(): Array<{ phone: string; channel: number; wall: number }> {
  return sim.state.requests
    .filter((r) => r.endpoint === START && r.status === 200)
    .map((r) => {
      const body = r.body as { phone: string; channel_id: number };
      return { phone: body.phone, channel: body.channel_id, wall: r.wall };
    });
}

describe('a campaign from a pool of numbers', () => {
  it('keeps each contact on its number (a stable choice of its phone) across a rerun and a second job', async () => {
    sim = await startSimulator({ seed: 5, channels: MORE_NUMBERS });
    const first = await setup({ channel_id: [10, 11, 14], name: 'pool-a' }, 24);
    const outcome = await runPool(first);
    expect(outcomeExitCode(outcome)).toBe(0);
    const starts = acceptedStarts();
    expect(starts).toHaveLength(24);
    for (const s of starts) expect(s.channel).toBe(rendezvousNumber(s.phone, [10, 11, 14]));
    expect(new Set(starts.map((s) => s.channel))).toEqual(new Set([10, 11, 14]));
    expect(outcome.numbers?.map((n) => n.sent).reduce((a, b) => a + b, 0)).toBe(24);
    const again = await runPool(first, 'resume');
    expect(again.thisRun.sent).toBe(0);
    // Next week's campaign to the same people, another job of the same pool: the same numbers.
    const second = await campaign({ rows: 24, job: { channel_id: [14, 10, 11], name: 'pool-b', limits: { min_hours_between_messages: 0, repeat_message: true } } });
    try {
      await runPool(second);
      const later = acceptedStarts().slice(24);
      expect(later).toHaveLength(24);
      for (const s of later) expect(s.channel).toBe(starts.find((f) => f.phone === s.phone)?.channel);
    } finally {
      await second.cleanup();
    }
  });

  it('keeps a contact on the number an earlier job sent it from when the next job\'s pool is made otherwise (the send ledger records the number)', async () => {
    sim = await startSimulator({ seed: 5, channels: MORE_NUMBERS });
    const first = await setup({ channel_id: [10, 11, 14], name: 'pool-a' }, 24);
    await runPool(first);
    const starts = acceptedStarts();
    expect(starts).toHaveLength(24);
    const ledger = (await readFile(`${first.stateDir}/ledger.jsonl`, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { phone: string; channel_id?: number });
    for (const s of starts) expect(ledger.find((e) => e.phone === s.phone)?.channel_id).toBe(s.channel);
    // A number added to the pool: the stable choice alone would move some of these people onto it.
    const moves = starts.filter((s) => rendezvousNumber(s.phone, [15, 10, 11, 14]) !== s.channel);
    expect(moves.length).toBeGreaterThan(0);
    const second = await campaign({ rows: 24, job: { channel_id: [15, 10, 11, 14], name: 'pool-b', limits: { min_hours_between_messages: 0, repeat_message: true } } });
    try {
      second.stateDir = first.stateDir;
      // plan shows the same split the run makes: each person on the number the ledger names.
      const plan = await planJob(await prepare(second.jobFile, { api: client() }), { store: createFileStore(second.stateDir) });
      const split: Record<string, number> = {};
      for (const s of starts) split[String(s.channel)] = (split[String(s.channel)] ?? 0) + 1;
      expect(plan.byNumber).toEqual(split);
      await runPool(second);
      const later = acceptedStarts().slice(24);
      expect(later).toHaveLength(24);
      for (const s of later) expect(s.channel).toBe(starts.find((f) => f.phone === s.phone)?.channel);
    } finally {
      await second.cleanup();
    }
  });

  it('never sends from a number above its own rate in any second', async () => {
    sim = await startSimulator({ seed: 5, channels: MORE_NUMBERS });
    const camp = await setup({ channel_id: [10, 11, 14], rate: { per_second: 4, concurrency: 6 } }, 30);
    leaving.length = 0;
    await runPool(camp);
    expect(acceptedStarts()).toHaveLength(30);
    for (const id of [10, 11, 14]) {
      const times = leaving.filter((s) => s.channel === id).map((s) => s.at);
      expect(times.length).toBeGreaterThan(4);
      for (const t of times) expect(times.filter((u) => u >= t && u < t + 1000).length).toBeLessThanOrEqual(4);
    }
  });

  it('drains a number the provider limits for spam (131048): its pending contacts finish from the others, nobody gets two first messages', async () => {
    sim = await startSimulator({ seed: 5, channels: MORE_NUMBERS });
    sim.state.setSpamLimit(2, 14);
    const camp = await setup({ channel_id: [10, 11, 14], rate: { per_second: 50, concurrency: 2 } }, 30);
    const outcome = await runPool(camp);
    expect(outcome.summary.byStatus).toMatchObject({ sent: 30, failed: 0, in_doubt: 0 });
    expect(outcomeExitCode(outcome)).toBe(0);
    for (const phone of camp.phones) expect(sim.state.messageCount(phone, 'outbound')).toBe(1);
    expect(acceptedStarts().filter((s) => s.channel === 14)).toHaveLength(2);
    const drained = outcome.numbers?.find((n) => n.channelId === 14);
    expect(drained?.drained).toMatchObject({ code: 131048 });
    expect(drained?.drained?.error).toContain('131048');
    expect(outcome.numbers?.filter((n) => n.drained)).toHaveLength(1);
    const summary = JSON.parse(await readFile(outcome.files.summary, 'utf8')) as { numbers: Array<{ channel_id: number; drained: { code: number } | null }> };
    expect(summary.numbers.find((n) => n.channel_id === 14)?.drained?.code).toBe(131048);
  });

  it('tells at the run\'s end, per number, the messages sent and failed, its rate, and a drain with when and the provider\'s words', async () => {
    sim = await startSimulator({ seed: 5, channels: MORE_NUMBERS });
    sim.state.setSpamLimit(2, 14);
    const camp = await setup({ channel_id: [10, 11, 14], rate: { per_second: 50, concurrency: 2 } }, 30);
    const outcome = await runPool(camp);
    const text = formatRunEnd(outcome, 'UTC');
    const sentBy = (id: number) => acceptedStarts().filter((s) => s.channel === id).length;
    // The rate each number reached is the run's own measure (its clock): the line shows the figure the outcome carries.
    const reached = (id: number) => {
      const r = outcome.numbers?.find((n) => n.channelId === id)?.reachedPerSecond;
      expect(r).toBeGreaterThan(0);
      return `${r ?? ''}/s reached (at most 50/s)`;
    };
    expect(text).toContain(`  number 10: ${sentBy(10)} sent, 0 failed, ${reached(10)}\n`);
    expect(text).toContain(`  number 11: ${sentBy(11)} sent, 0 failed, ${reached(11)}\n`);
    const drain = outcome.numbers?.find((n) => n.channelId === 14)?.drained;
    expect(drain).toBeDefined();
    expect(text).toContain(`  number 14: 2 sent, 0 failed, ${reached(14)}; drained at ${formatStamp(drain?.at ?? '', 'UTC')} (131048): ${drain?.error ?? ''}; its contacts not sent went from the other numbers\n`);
  });

  it('writes in report.csv the number each contact was sent from, the new one for a contact moved off a drained number', async () => {
    sim = await startSimulator({ seed: 5, channels: MORE_NUMBERS });
    sim.state.setSpamLimit(2, 14);
    const camp = await setup({ channel_id: [10, 11, 14], rate: { per_second: 50, concurrency: 2 } }, 30);
    const outcome = await runPool(camp);
    const byPhone = new Map(acceptedStarts().map((s) => [s.phone, s.channel]));
    const rows = (await readFile(outcome.files.report, 'utf8')).trim().split('\n').map((l) => l.split(','));
    const header = rows[0] ?? [];
    const col = header.indexOf('channel_id');
    expect(col).toBeGreaterThan(-1);
    const phoneCol = header.indexOf('phone');
    const body = rows.slice(1);
    expect(body).toHaveLength(30);
    for (const r of body) expect(Number(r[col])).toBe(byPhone.get(r[phoneCol] ?? ''));
    // Moved: its own number (the stable choice) was the drained 14, and another number sent it.
    const moved = body.filter((r) => rendezvousNumber(r[phoneCol] ?? '', [10, 11, 14]) === 14 && Number(r[col]) !== 14);
    expect(moved.length).toBeGreaterThan(0);
    // The ledger names the number that sent each person: a moved contact's refused entry from 14 was taken back.
    const ledger = await createFileStore(camp.stateDir).ledger();
    for (const [phone, channel] of byPhone) expect(ledger.lastChannelOf(phone)).toBe(channel);
  });

  it('shows per number in status and report.html the contacts sent and failed, and a drain with when and why, after a resume too', async () => {
    sim = await startSimulator({ seed: 5, channels: MORE_NUMBERS });
    sim.state.setSpamLimit(2, 14);
    const camp = await setup({ channel_id: [10, 11, 14], rate: { per_second: 50, concurrency: 2 } }, 30);
    await runPool(camp);
    const store = createFileStore(camp.stateDir);
    const first = await jobStatus(camp.jobFile, { store });
    const sentBy = (id: number) => acceptedStarts().filter((s) => s.channel === id).length;
    expect(first.numbers?.map((n) => [n.channelId, n.sent, n.failed])).toEqual([10, 11, 14].map((id) => [id, sentBy(id), 0]));
    expect(first.numbers?.find((n) => n.channelId === 14)?.drained).toMatchObject({ code: 131048, error: expect.stringContaining('131048') as unknown });
    const html = await jobReport(camp.jobFile, { store, format: 'html' });
    const page = await readFile(html.file, 'utf8');
    expect(page).toContain('<section id="numbers">');
    expect(page).toMatch(/data-number="14" data-metric="drained">[^<]*\(131048\)/);
    expect(page).toContain(`data-number="10" data-metric="sent">${sentBy(10)}<`);
    // The rate each number reached in the run: the run's summary.json says it, status and the page show the same.
    const summary = JSON.parse(await readFile(store.jobFiles('cli-test').summary, 'utf8')) as { numbers: Array<{ channel_id: number; sent: number; rate_reached_per_second: number | null }> };
    for (const n of summary.numbers) {
      const reached = n.rate_reached_per_second;
      if (n.sent < 2) expect(reached).toBeNull();
      if (reached === null) continue;
      expect(reached).toBeGreaterThan(0);
      expect(first.numbers?.find((x) => x.channelId === n.channel_id)?.reachedPerSecond).toBe(reached);
      expect(page).toContain(`data-number="${n.channel_id}" data-metric="rate">${reached}/s<`);
    }
    expect(summary.numbers.some((n) => n.rate_reached_per_second !== null)).toBe(true);
    // A resume sends nothing more: the counts are the job's still; its own run drained nothing.
    await runPool(camp, 'resume');
    const after = await jobStatus(camp.jobFile, { store: createFileStore(camp.stateDir) });
    expect(after.numbers?.map((n) => n.sent).reduce((a, b) => a + b, 0)).toBe(30);
    expect(after.numbers?.find((n) => n.channelId === 14)?.sent).toBe(2);
    expect(after.numbers?.some((n) => n.drained)).toBe(false);
  });

  it('leaves the channel_id column out of report.csv for a job of one number', async () => {
    sim = await startSimulator({ seed: 5, channels: MORE_NUMBERS });
    const camp = await setup({ channel_id: 10 }, 3);
    const outcome = await runPool(camp);
    expect((await readFile(outcome.files.report, 'utf8')).split('\n')[0]).not.toContain('channel_id');
  });

  it('stops the run (exit 3) when every number of the pool is drained', async () => {
    sim = await startSimulator({ seed: 5, channels: MORE_NUMBERS });
    for (const id of [10, 11, 14]) sim.state.setSpamLimit(1, id);
    const camp = await setup({ channel_id: [10, 11, 14], rate: { per_second: 50, concurrency: 1 } }, 12);
    const outcome = await runPool(camp);
    expect(outcome.stopped?.reason).toBe('provider_account');
    expect(outcomeExitCode(outcome)).toBe(3);
    expect(acceptedStarts()).toHaveLength(3);
    for (const phone of camp.phones) expect(sim.state.messageCount(phone, 'outbound')).toBeLessThanOrEqual(1);
  });

  it('sends the template, never free text, from a number the person did not write to', async () => {
    sim = await startSimulator({ seed: 5, channels: MORE_NUMBERS });
    const camp = await setup(
      {
        channel_id: [10, 14],
        message: { text: 'Oi {{name}}', template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}', '2': '{{coupon}}' } } },
      },
      8,
    );
    // Each person wrote to number 10: their window is open there only.
    for (const phone of camp.phones) sim.state.inbound(phone, 'oi', 10);
    const outcome = await runPool(camp);
    expect(outcome.summary.byStatus).toMatchObject({ sent: 8, failed: 0 });
    const refused = sim.state.requests.filter((r) => r.status === 502);
    expect(refused).toHaveLength(0);
    const starts = sim.state.requests.filter((r) => r.endpoint === START).map((r) => r.body as { send_type: string; channel_id: number });
    for (const b of starts.filter((x) => x.channel_id === 14)) expect(b.send_type).toBe('template');
  });
});

/** Each start-whatsapp of a job after the first `skip` ones: its phone, number and kind. */
function startsAfter(skip: number): Array<{ phone: string; channel: number; sendType: string; status: number }> {
  return sim.state.requests
    .filter((r) => r.endpoint === START)
    .slice(skip)
    .map((r) => {
      const body = r.body as { phone: string; channel_id: number; send_type: string };
      return { phone: body.phone, channel: body.channel_id, sendType: body.send_type, status: r.status };
    });
}

const TEXT_AND_TEMPLATE = { text: 'Oi {{name}}, seu cupom: {{coupon}}', template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}', '2': '{{coupon}}' } } };

describe('the 24-hour window of a pool belongs to a number', () => {
  /**
   * A first job sends each person a template from its own number; then each writes back: most to the number
   * that wrote to them, `strays` to the other one. `sync` records the replies and the number each came to.
   */
  async function repliedTo(strays: (phone: string) => boolean): Promise<{ camp: Campaign; ownNumber: Map<string, number>; wroteTo: Map<string, number> }> {
    sim = await startSimulator({ seed: 5, channels: MORE_NUMBERS });
    const camp = await setup({ channel_id: [10, 11], name: 'first' }, 12);
    expect(outcomeExitCode(await runPool(camp))).toBe(0);
    const ownNumber = new Map(acceptedStarts().map((s) => [s.phone, s.channel]));
    const wroteTo = new Map<string, number>();
    for (const [phone, own] of ownNumber) {
      const to = strays(phone) ? (own === 10 ? 11 : 10) : own;
      sim.state.inbound(phone, 'oi', to);
      wroteTo.set(phone, to);
    }
    await sync({ api: client(), store: createFileStore(camp.stateDir) });
    return { camp, ownNumber, wroteTo };
  }

  /** The second job of the same list and store: text when the window is open, else the template. */
  async function secondJob(camp: Campaign, job: Record<string, unknown> = {}): Promise<{ outcome: RunOutcome; starts: ReturnType<typeof startsAfter> }> {
    const before = sim.state.requests.filter((r) => r.endpoint === START).length;
    const second = await campaign({ rows: 12, job: { channel_id: [10, 11], name: 'second', message: TEXT_AND_TEMPLATE, limits: { min_hours_between_messages: 0, repeat_message: true }, ...job } });
    try {
      second.stateDir = camp.stateDir;
      const outcome = await runPool(second);
      return { outcome, starts: startsAfter(before) };
    } finally {
      await second.cleanup();
    }
  }

  it('sends text from the number a person wrote to, and the template to a person whose window is on another number than its own', async () => {
    const strays = (phone: string) => phone.endsWith('3') || phone.endsWith('6');
    const { camp, ownNumber, wroteTo } = await repliedTo(strays);
    const { outcome, starts } = await secondJob(camp);
    expect(outcome.summary.byStatus).toMatchObject({ sent: 12, failed: 0 });
    // Nothing refused: the simulator answers 131047 to free text from a number with no open window.
    expect(starts.filter((s) => s.status !== 200)).toEqual([]);
    expect(starts).toHaveLength(12);
    for (const s of starts) {
      expect(s.channel).toBe(ownNumber.get(s.phone));
      expect(s.sendType).toBe(wroteTo.get(s.phone) === s.channel ? 'text' : 'template');
    }
    expect(starts.filter((s) => s.sendType === 'text').length).toBe(12 - [...ownNumber.keys()].filter(strays).length);
    expect(starts.filter((s) => s.sendType === 'template').length).toBeGreaterThan(0);
  });

  it('plans text only for a person whose window is on its own number, as the run sends', async () => {
    const strays = (phone: string) => phone.endsWith('3') || phone.endsWith('6');
    const { camp, ownNumber } = await repliedTo(strays);
    const second = await campaign({ rows: 12, job: { channel_id: [10, 11], name: 'second', message: TEXT_AND_TEMPLATE, limits: { min_hours_between_messages: 0, repeat_message: true } } });
    try {
      const plan = await planJob(await prepare(second.jobFile, { api: client() }), { store: createFileStore(camp.stateDir) });
      const stray = [...ownNumber.keys()].filter(strays).length;
      expect(stray).toBeGreaterThan(0);
      expect(plan.byAction).toEqual({ text: 12 - stray, template: stray });
      const split: Record<string, number> = {};
      for (const own of ownNumber.values()) split[String(own)] = (split[String(own)] ?? 0) + 1;
      expect(plan.byNumber).toEqual(split);
    } finally {
      await second.cleanup();
    }
  });

  it('gives a person with an open window on a drained number the template from its new number', async () => {
    const { camp, ownNumber } = await repliedTo(() => false);
    // Number 11 reaches its spam limit after one message of the second job: its other people move to 10.
    sim.state.setSpamLimit(1, 11);
    const { outcome, starts } = await secondJob(camp, { rate: { per_second: 50, concurrency: 1 } });
    expect(outcome.summary.byStatus).toMatchObject({ sent: 12, failed: 0 });
    expect(outcome.numbers?.find((n) => n.channelId === 11)?.drained).toMatchObject({ code: 131048 });
    const accepted = starts.filter((s) => s.status === 200);
    expect(accepted).toHaveLength(12);
    const moved = accepted.filter((s) => ownNumber.get(s.phone) === 11 && s.channel === 10);
    expect(moved.length).toBeGreaterThan(0);
    for (const s of moved) expect(s.sendType).toBe('template');
    // No free text ever left from a number the person did not write to.
    expect(starts.filter((s) => s.sendType === 'text' && s.channel !== ownNumber.get(s.phone))).toEqual([]);
    for (const s of accepted.filter((a) => a.channel === ownNumber.get(a.phone))) expect(s.sendType).toBe('text');
  });
});

describe('plan of a pool', () => {
  it('shows the contacts per number and the time at the pool\'s rates', async () => {
    sim = await startSimulator({ seed: 5, channels: MORE_NUMBERS });
    const camp = await setup({ channel_id: [10, 11, 14], rate: { per_second: 2 } }, 24);
    const plan = await planJob(await prepare(camp.jobFile, { api: client() }), { store: createFileStore(camp.stateDir) });
    const expected: Record<string, number> = {};
    for (const phone of camp.phones) {
      const id = String(rendezvousNumber(phone, [10, 11, 14]));
      expected[id] = (expected[id] ?? 0) + 1;
    }
    expect(plan.byNumber).toEqual(expected);
    expect(plan.poolSeconds).toBe(Math.ceil(Math.max(...Object.values(expected)) / 2));
  });
});
