import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createFileStore, createPgStore, type SentState, type StateStore } from '../../src/checkpoint/backends.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { campaign, type Campaign } from '../helpers/campaign.js';
import { cli } from '../helpers/in-process.js';
import { schemaUrl } from '../helpers/pg-cluster.js';

const pgUrl = inject('pgUrl');
/** Both backends: the state folder, and a database of its own (when the test cluster runs). */
const backends = [{ name: 'file', pg: false }, ...(pgUrl ? [{ name: 'PostgreSQL', pg: true }] : [])];

const HOUR = 3_600_000;

describe.each(backends)('a follow-up of an earlier job, on the $name store', ({ pg }) => {
let sim: RunningSimulator;
let c: Campaign;
let env: { env: Record<string, string> };
let store: StateStore;

/** The simulator's truth: each phone's outbound messages (the platform's records). */
function sentTo(phone: string): number {
  const client = sim.state.clientByPhone(phone);
  const conversations = [...sim.state.conversations.values()].filter((x) => x.clientId === client?.id);
  return conversations.flatMap((conv) => sim.state.messagesOf(conv.id).filter((m) => m.senderType === 'user')).length;
}

/** A follow-up job file beside the campaign's. */
async function followUpJob(name: string, followUp: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<string> {
  const file = path.join(c.dir, `${name}.json`);
  const job = {
    name,
    follow_up: followUp,
    company_id: 1,
    channel_id: 10,
    message: { template: { name: 'welcome', language: 'pt_BR', variables: { '1': '{{name}}' } } },
    rate: { per_second: 200, concurrency: 8 },
    // The earlier job messaged everyone minutes ago: a follow-up this soon lowers the cross-job protection on purpose.
    limits: { min_hours_between_messages: 0, repeat_message: true },
    ...extra,
  };
  await writeFile(file, JSON.stringify(job, null, 2));
  return file;
}

async function earlierStates(): Promise<SentState[]> {
  const view = await store.readJob('bf-2026');
  return [...(view?.states.values() ?? [])].filter((s): s is SentState => s.status === 'sent');
}

beforeAll(async () => {
  sim = await startSimulator({ seed: 25, delivery: { delivered: 0.9, read: 0.5, failed: 0.05, failureCodes: { 131026: 1 } } });
  c = await campaign({ rows: 40, name: 'bf-2026' });
  const url = pg ? schemaUrl(pgUrl) : undefined;
  env = { env: { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: c.stateDir, ...(url && { OUTREACH_STORE: url }) } };
  store = url ? createPgStore(url, { filesDir: c.stateDir }) : createFileStore(c.stateDir);
  expect((await cli(['run', c.jobFile, '--no-progress'], env)).code).toBe(0);
  sim.state.advanceClock(2 * HOUR); // every delivery and read is due on the platform
}, 60_000);

afterAll(async () => {
  await store?.close();
  await sim?.close();
  await c?.cleanup();
});

describe('the follow-up', () => {
  it('is refused before the earlier job was tracked, saying to run outreach track first (exit 2)', async () => {
    const job = await followUpJob('nudge-early', { job: 'bf-2026', who: ['delivered_not_read'] });
    const plan = await cli(['plan', job], env);
    expect(plan.code).toBe(2);
    expect(plan.stderr).toMatch(/job "bf-2026" was never tracked; run `outreach track .*job\.json` first/);
    const run = await cli(['run', job, '--no-progress'], env);
    expect(run.code).toBe(2);
    expect(sim.state.messages.size).toBe(40);
  });

  it('of delivered_not_read sends exactly those contacts once, and a rerun sends nobody', async () => {
    expect((await cli(['track', c.jobFile], env)).code).toBe(0);
    const unread = (await earlierStates()).filter((s) => s.delivery?.status === 'delivered').map((s) => s.phone);
    expect(unread.length).toBeGreaterThan(5);
    const job = await followUpJob('nudge', { job: 'bf-2026', who: ['delivered_not_read'] });

    const plan = await cli(['plan', job], env);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(new RegExp(`follows up bf-2026 \\(last tracked .*\\): ${unread.length} of its contacts \\(delivered_not_read\\)`));
    expect(plan.stdout).toMatch(new RegExp(`delivered_not_read ${unread.length}`));
    // The rows of the earlier list the follow-up leaves out are named, and "not delivered" tells its two kinds apart.
    expect(plan.stdout).toMatch(new RegExp(`rows read +40 .*\\n  not followed up +${40 - unread.length} `));
    expect(plan.stdout).toMatch(/its contacts +not_delivered \d+ \(\d+ failed to deliver, \d+ still only "sent"\)/);
    expect(plan.stdout).toMatch(new RegExp(`by country +BR ${unread.length}`));

    const run = await cli(['run', job, '--no-progress'], env);
    expect(run.code).toBe(0);
    for (const phone of c.phones) expect(sentTo(phone), phone).toBe(unread.includes(phone) ? 2 : 1);
    const view = await store.readJob('nudge');
    expect([...(view?.states.values() ?? [])].filter((s) => s.status === 'sent').map((s) => s.phone).sort()).toEqual([...unread].sort());

    const before = sim.state.messages.size;
    const again = await cli(['run', job, '--no-progress'], env);
    expect(again.code).toBe(0);
    expect(sim.state.messages.size).toBe(before);
    // The earlier job's page links the follow-up's numbers.
    const out = path.join(c.dir, 'bf.html');
    expect((await cli(['report', c.jobFile, '--format', 'html', '--out', out], env)).code).toBe(0);
    expect(await readFile(out, 'utf8')).toMatch(new RegExp(`<a href="[^"]*nudge/report.html">nudge</a></td><td>delivered_not_read</td><td data-follow-up="nudge" data-metric="sent">${unread.length}</td>`));
    const status = await cli(['status', job], env);
    expect(status.stdout).toMatch(new RegExp(`sent\\s+${unread.length}`));
  });

  it('honours the suppression list: a suppressed contact is skipped, never messaged', async () => {
    const unread = (await earlierStates()).filter((s) => s.delivery?.status === 'delivered').map((s) => s.phone);
    const [stopped] = unread;
    if (stopped === undefined) throw new Error('no unread contact');
    expect((await cli(['suppress', 'add', stopped], env)).code).toBe(0);
    const job = await followUpJob('nudge-2', { job: 'bf-2026', who: ['delivered_not_read'] }, { message: { text: 'Oi {{name}}', template: { name: 'welcome', language: 'pt_BR', variables: { '1': '{{name}}' } } } });
    const before = sentTo(stopped);
    const run = await cli(['run', job, '--no-progress'], env);
    expect(run.code).toBe(0);
    expect(sentTo(stopped)).toBe(before);
    const view = await store.readJob('nudge-2');
    expect(view?.states.get(stopped)).toMatchObject({ status: 'skipped', reason: 'suppressed' });
    expect([...(view?.states.values() ?? [])].filter((s) => s.status === 'sent')).toHaveLength(unread.length - 1);
  });

  it('takes only contacts whose first message is after_hours old: none yet, and plan says when the rest come', async () => {
    const job = await followUpJob('nudge-later', { job: 'bf-2026', who: ['delivered_not_read', 'read_not_replied'], after_hours: 48 });
    const plan = await cli(['plan', job], env);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(/follows up bf-2026 .*: 0 of its contacts/);
    expect(plan.stdout).toMatch(/not 48 hours old yet: \d+/);
    const before = sim.state.messages.size;
    expect((await cli(['run', job, '--no-progress'], env)).code).toBe(0);
    expect(sim.state.messages.size).toBe(before);
  });

  it('keeps the cross-job protection: without lowering min_hours_between_messages the follow-up is deferred', async () => {
    const job = await followUpJob('nudge-protected', { job: 'bf-2026', who: ['read_not_replied'] }, { limits: {} });
    const before = sim.state.messages.size;
    const run = await cli(['run', job, '--no-progress', '--json'], env);
    expect(sim.state.messages.size).toBe(before);
    const outcome = JSON.parse(run.stdout) as { deferred: Array<{ reason: string; count: number }> };
    expect(outcome.deferred.find((d) => d.reason === 'recently_messaged')?.count).toBeGreaterThan(0);
  });
});
});
