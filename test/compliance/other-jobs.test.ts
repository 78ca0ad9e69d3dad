import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jobStatus, outcomeJson, planJob } from '../../src/app/index.js';
import { formatPlan, planJson } from '../../src/cli/format/plan.js';
import { formatRunEnd } from '../../src/cli/format/run.js';
import { createFileStore } from '../../src/checkpoint/backends.js';
import { bench, byPhone, HOUR, phone, type Bench } from './helpers.js';
import { waitFor } from '../helpers/wait.js';
import { docPages } from '../helpers/doc-pages.js';

let b: Bench;
beforeEach(async () => {
  b = await bench();
});
afterEach(async () => {
  await b.close();
});

const T0 = Date.UTC(2026, 10, 24, 21, 2, 0);
const iso = (ms: number) => new Date(ms).toISOString();
/** A time shown to a person names its zone: "2026-11-24 18:02 UTC-03:00". */
const ZONE = 'America/Sao_Paulo';
/** A time as printed to a person: in the zone asked for, naming it. */
const ZONED = String.raw`(?:\d{4}-\d\d-\d\d |[A-Z][a-z]{2} )?\d\d:\d\d America/Sao_Paulo`;

/** Another message to the same people: the same template, another coupon. */
const ANOTHER = { message: { template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}', '2': 'NATAL' } } } };

/** A copy of a job file under another name: the same list, the same state folder (`extra` may give it another message). */
async function copyAs(jobFile: string, name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const body = JSON.parse(await readFile(jobFile, 'utf8')) as Record<string, unknown>;
  const file = path.join(path.dirname(jobFile), `${name}.json`);
  await writeFile(file, JSON.stringify({ ...body, name, ...extra }, null, 2));
  return file;
}

describe('nobody twice across jobs, by default', () => {
  const rows = Array.from({ length: 5 }, (_, i) => ({ phone: phone(i, 20) }));

  it('a copy of a finished job under another name sends nobody its message again: plan names the other job, run skips them already_sent, for good', async () => {
    const first = await b.job('bf-2026', rows);
    expect((await b.run(await b.prepare(first), { clock: () => T0 })).thisRun.sent).toBe(5);
    const copy = await copyAs(first, 'bf-2026-copy');
    const later = T0 + 30 * 24 * HOUR;
    const plan = await planJob(await b.prepare(copy), { store: b.store, clock: () => later });
    expect(plan.wouldSendNow).toBe(0);
    expect(plan.byAction).toEqual({ 'skip:already_sent': 5 });
    expect(plan.messagedByOtherJobs.sameMessage).toEqual({ contacts: 5, byJob: [{ job: 'bf-2026', contacts: 5, lastAt: iso(T0) }] });
    expect(plan.messagedByOtherJobs.contacts).toBe(0);
    const outcome = await b.run(await b.prepare(copy), { clock: () => later });
    expect(outcome.thisRun).toMatchObject({ sent: 0, skipped: 5, deferred: 0 });
    expect(outcome.deferred).toEqual([]);
    for (const r of rows) expect(b.sim.state.startWhatsappCount(r.phone)).toBe(1);
    for (const row of byPhone(await b.report('bf-2026-copy')).values()) expect(row).toMatchObject({ status: 'skipped', action: 'skip:already_sent', error: `job bf-2026 sent this message on ${iso(T0).slice(0, 10)}` });
  });

  it('a job of another message under another name sends nobody within the frequency cap: plan names the other job, run defers them recently_messaged', async () => {
    const first = await b.job('bf-2026', rows);
    const done = await b.run(await b.prepare(first), { clock: () => T0 });
    expect(done.thisRun.sent).toBe(5);

    const copy = await copyAs(first, 'bf-2026-again', ANOTHER);
    const later = T0 + 2 * HOUR;
    const plan = await planJob(await b.prepare(copy), { store: b.store, clock: () => later });
    expect(plan.wouldSendNow).toBe(0);
    expect(plan.byAction).toEqual({ 'defer:recently_messaged': 5 });
    expect(plan.messagedByOtherJobs).toEqual({
      hours: 24,
      protectionOn: true,
      contacts: 5,
      byJob: [{ job: 'bf-2026', contacts: 5, lastAt: iso(T0) }],
      until: iso(T0 + 24 * HOUR),
      sameMessage: { contacts: 0, byJob: [] },
    });
    expect(formatPlan(plan, ZONE)).toMatch(new RegExp(`5 contacts of this list got a first message from other jobs in the last 24 h: bf-2026 \\(5, last ${ZONED}\\); deferred recently_messaged until ${ZONED}`));

    const outcome = await b.run(await b.prepare(copy), { clock: () => later });
    expect(outcome.thisRun).toMatchObject({ sent: 0, deferred: 5 });
    for (const r of rows) expect(b.sim.state.startWhatsappCount(r.phone)).toBe(1);
    expect(outcome.messagedByOtherJobs).toMatchObject({ contacts: 5, protectionOn: true, byJob: [{ job: 'bf-2026', contacts: 5, lastAt: iso(T0) }] });
    expect(outcome.deferred).toEqual([{ reason: 'recently_messaged', count: 5, notBefore: iso(T0 + 24 * HOUR) }]);
    for (const row of byPhone(await b.report('bf-2026-again')).values()) expect(row).toMatchObject({ status: 'deferred', action: 'defer:recently_messaged' });
    expect(formatRunEnd(outcome, ZONE, later)).toMatch(/5 contacts of this list got a first message from other jobs in the last 24 h: bf-2026 \(5, last /);
    const json = {
      hours: 24,
      protection_on: true,
      contacts: 5,
      by_job: [{ job: 'bf-2026', contacts: 5, last_at: iso(T0) }],
      until: iso(T0 + 24 * HOUR),
      same_message: { contacts: 0, by_job: [] },
    };
    expect(planJson(plan).messaged_by_other_jobs).toEqual(json);
    expect(outcomeJson(outcome).messaged_by_other_jobs).toEqual(json);
  });

  it('with min_hours_between_messages 0 the copy\'s plan warns that the protection is off, and run sends them again', async () => {
    const first = await b.job('weekly', rows);
    await b.run(await b.prepare(first), { clock: () => T0 });

    const copy = await copyAs(first, 'weekly-again', { ...ANOTHER, limits: { min_hours_between_messages: 0 } });
    const later = T0 + 2 * HOUR;
    const plan = await planJob(await b.prepare(copy), { store: b.store, clock: () => later });
    expect(plan.preflightWarnings.join('\n')).toMatch(/limits\.min_hours_between_messages is 0/);
    expect(plan.wouldSendNow).toBe(5);
    expect(plan.messagedByOtherJobs).toMatchObject({ protectionOn: false, contacts: 5, byJob: [{ job: 'weekly', contacts: 5 }] });
    expect(plan.messagedByOtherJobs.until).toBeUndefined();
    expect(formatPlan(plan, ZONE)).toMatch(/warning: limits\.min_hours_between_messages is 0/);

    const outcome = await b.run(await b.prepare(copy), { clock: () => later });
    expect(outcome.thisRun).toMatchObject({ sent: 5, deferred: 0 });
    for (const r of rows) expect(b.sim.state.startWhatsappCount(r.phone)).toBe(2);
  });

  it('a job that sets nothing waits 24 hours after another job\'s first message, then sends', async () => {
    const first = await b.job('monday', rows.slice(0, 2));
    await b.run(await b.prepare(first), { clock: () => T0 });
    const copy = await copyAs(first, 'tuesday', ANOTHER);
    const early = await b.run(await b.prepare(copy), { clock: () => T0 + 23 * HOUR });
    expect(early.thisRun).toMatchObject({ sent: 0, deferred: 2 });
    const day = await b.run(await b.prepare(copy), { clock: () => T0 + 24 * HOUR + 60_000 });
    expect(day.thisRun).toMatchObject({ sent: 2, deferred: 0 });
    expect(day.messagedByOtherJobs.contacts).toBe(0);
  });
});

describe('advice', () => {
  it('the README and the guides never suggest a new job name as a way to go on', () => {
    const pages = docPages();
    for (const page of pages) expect(page.text, page.name).not.toMatch(/(a|give the job a) new (job )?name/i);
    expect(pages.map((p) => p.text).join('\n')).toMatch(/messaged by other jobs|got a first message from other jobs/);
  });
});

describe('the messaging limit counts accepted first messages only', () => {
  it('a refused send is taken back: neither the limit\'s count nor another job\'s frequency cap sees it, and status\'s messaged equals the sent count', async () => {
    const rows = Array.from({ length: 6 }, (_, i) => ({ phone: phone(i, 21) }));
    const [undeliverable = '', marketing = '', pairRate = ''] = rows.map((r) => r.phone);
    b.sim.state.forceProviderError(undeliverable, 131026); // failed for good
    b.sim.state.forceProviderError(marketing, 131049); // refused, then deferred
    b.sim.state.forceProviderError(pairRate, 131056); // refused, sent again on its conversation, refused again
    const first = await b.job('refused', rows, { limits: { daily_unique_recipients: 100 } });
    const outcome = await b.run(await b.prepare(first), { clock: () => T0, sleep: async () => undefined });
    expect(outcome.thisRun).toMatchObject({ sent: 3, failed: 2, deferred: 1 });
    // The pair-rate phone's entry was written ahead once, kept through its retry, and taken back when it settled refused.
    const lines = (await readFile(path.join(b.stateDir, 'ledger.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { phone: string; op?: string });
    expect(lines.filter((l) => l.phone === pairRate).map((l) => l.op ?? 'entry')).toEqual(['entry', 'take_back']);
    expect(b.sim.state.startWhatsappCount(pairRate) + b.sim.state.requests.filter((q) => q.path.endsWith('/wba-send-template')).length).toBe(2);

    const status = await jobStatus(first, { store: b.store, clock: () => T0 + HOUR });
    expect(status.messaging.used).toBe(outcome.thisRun.sent);
    expect(status.messaging.room).toBe(100 - 3);

    // Another job of the folder, with a frequency cap: the refused three are not held back, the three sent are.
    b.sim.state.clearProviderError();
    const copy = await copyAs(first, 'refused-again', { ...ANOTHER, limits: { min_hours_between_messages: 48 } });
    const again = await b.run(await b.prepare(copy), { clock: () => T0 + HOUR });
    expect(again.thisRun).toMatchObject({ sent: 3, deferred: 3 });
    for (const p of [undeliverable, marketing, pairRate]) expect(b.sim.state.messageCount(p)).toBe(1);
    expect(again.messagedByOtherJobs).toMatchObject({ contacts: 3, byJob: [{ job: 'refused', contacts: 3 }] });
  });

  it('a refused request waiting for its retry keeps its room and keeps other jobs off the phone until it settles', async () => {
    const rows = Array.from({ length: 3 }, (_, i) => ({ phone: phone(i, 26) }));
    const [held = '', second = '', third = ''] = rows.map((r) => r.phone);
    b.sim.state.forceProviderError(held, 131056); // refused, then sent again on its conversation after a wait
    const first = await b.job('retrying', rows, { limits: { daily_unique_recipients: 2 }, rate: { per_second: 1000, concurrency: 2 } });
    const other = await copyAs(first, 'meanwhile', ANOTHER);
    const watcher = createFileStore(b.stateDir);
    let meanwhile: Awaited<ReturnType<typeof b.run>> | undefined;
    const outcome = await b.run(await b.prepare(first), {
      clock: () => T0,
      // The retry's wait lasts until the other worker has decided the third contact; then another job of the folder runs.
      sleep: async () => {
        if (meanwhile !== undefined) return;
        await waitFor(async () => (await watcher.readJob('retrying'))?.states.get(third)?.status !== undefined);
        b.sim.state.clearProviderError(held);
        meanwhile = await b.run(await b.prepare(other), { clock: () => T0 });
      },
    });
    // The held phone got its message on the retry; its room was never given to the third contact.
    expect(b.sim.state.messageCount(held)).toBe(1);
    expect(b.sim.state.messageCount(second)).toBe(1);
    expect(b.sim.state.startWhatsappCount(third)).toBe(0);
    expect(outcome.thisRun).toMatchObject({ sent: 2, deferred: 1 });
    // The other job ran during the wait: it messaged nobody (the held phone included) a second time.
    expect(meanwhile?.thisRun.sent).toBe(0);
    const status = await jobStatus(first, { store: b.store, clock: () => T0 + HOUR });
    expect(status.messaging.used).toBe(2);
  });

  it('a send in doubt stays counted: it may have gone', async () => {
    const rows = Array.from({ length: 3 }, (_, i) => ({ phone: phone(i, 24) }));
    const jobFile = await b.job('doubt', rows, { limits: { daily_unique_recipients: 100 } });
    const prepared = await b.prepare(jobFile);
    b.sim.state.setFaults({ dropRate: 1, dropAfterProcessing: true });
    const outcome = await b.run(prepared, { clock: () => T0 });
    expect(outcome.summary.byStatus).toMatchObject({ in_doubt: 3, sent: 0 });
    const status = await jobStatus(jobFile, { store: b.store, clock: () => T0 + HOUR });
    expect(status.messaging.used).toBe(3);
  });

  it('the ledger\'s index leaves a taken-back entry out, read back in any order, and tells two entries of one millisecond apart', async () => {
    const { LedgerIndex } = await import('../../src/checkpoint/index.js');
    const index = new LedgerIndex();
    const entry = { phone: phone(0, 22), at: T0, job: 'a', outsideWindow: true, id: 'x1' };
    index.add(entry);
    index.takeBack(entry);
    // Read back (the file backend reads its own lines): still taken back.
    index.add(entry);
    expect(index.uniqueOutsideWindowSince(T0 - 1)).toBe(0);
    expect(index.lastMessagedAt(entry.phone)).toBeUndefined();
    // The retry at the same millisecond is another entry: it counts until taken back in its turn.
    const retry = { ...entry, id: 'x2' };
    index.add(retry);
    expect(index.uniqueOutsideWindowSince(T0 - 1)).toBe(1);
    index.takeBack(retry);
    expect(index.uniqueOutsideWindowSince(T0 - 1)).toBe(0);
    // An earlier accepted message of the phone counts again once a later one is taken back.
    index.add({ phone: entry.phone, at: T0 - HOUR, job: 'b', outsideWindow: true, id: 'y' });
    const later = { phone: entry.phone, at: T0 + HOUR, job: 'a', outsideWindow: true, id: 'z' };
    index.add(later);
    expect(index.lastOutsideWindowAt(entry.phone)).toBe(T0 + HOUR);
    index.takeBack(later);
    expect(index.lastOutsideWindowAt(entry.phone)).toBe(T0 - HOUR);
    expect(index.lastMessagedAt(entry.phone)).toBe(T0 - HOUR);
    expect(index.uniqueOutsideWindowSince(T0 - 2 * HOUR)).toBe(1);
  });

  it('the file backend keeps a take-back, read by every store of the folder', async () => {
    const { createFileStore } = await import('../../src/checkpoint/backends.js');
    const ledger = await createFileStore(b.stateDir).ledger();
    const entry = { phone: phone(0, 23), at: T0, job: 'a', outsideWindow: true, id: 'q1' };
    await ledger.record(entry);
    await ledger.record({ ...entry, phone: phone(1, 23), id: 'q2' });
    await ledger.takeBack(entry);
    await ledger.refresh();
    expect(ledger.uniqueOutsideWindowSince(T0 - 1)).toBe(1);
    const other = await createFileStore(b.stateDir).ledger();
    expect(other.uniqueOutsideWindowSince(T0 - 1)).toBe(1);
    expect(other.lastMessagedAt(entry.phone)).toBeUndefined();
    expect(other.lastMessagedAt(phone(1, 23))).toBe(T0);
  });
});
