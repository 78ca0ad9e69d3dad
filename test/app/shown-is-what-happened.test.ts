import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError, planJob, showContact, suppressPhones, unsuppressPhones } from '../../src/app/index.js';
import { userErrorExitCode } from '../../src/cli/exit.js';
import { formatPlan } from '../../src/cli/format/plan.js';
import { formatStory } from '../../src/cli/format/show.js';
import { bench, HOUR, phone, type Bench } from '../compliance/helpers.js';
import { cli } from '../helpers/in-process.js';

const T0 = Date.UTC(2026, 2, 2, 15, 0, 0);

let b: Bench;
beforeEach(async () => {
  b = await bench();
});
afterEach(async () => {
  await b.close();
});

/** The template variables each phone's start-whatsapp carried, as the simulator received them. */
function received(): Map<string, Record<string, string>> {
  const out = new Map<string, Record<string, string>>();
  for (const q of b.sim.state.requests) {
    if (q.method !== 'POST' || !q.path.endsWith('/start-whatsapp')) continue;
    const body = q.body as { phone?: string; variables?: Record<string, string> } | undefined;
    if (body?.phone && body.variables) out.set(body.phone, body.variables);
  }
  return out;
}

/** Rewrites the job's list cell by cell. */
async function editList(name: string, edit: (text: string) => string): Promise<void> {
  const file = path.join(b.dir, `${name}.csv`);
  await writeFile(file, edit(await readFile(file, 'utf8')));
}

describe('show prints what the journal says was sent, not the list as it is now', () => {
  it('prints the coupon the platform received after the coupon was edited in the list', async () => {
    const p = phone(0);
    const jobFile = await b.job('coupons', [{ phone: p }]);
    await b.run(await b.prepare(jobFile), { clock: () => T0 });
    expect(received().get(p)).toEqual({ '1': 'Ana 0', '2': 'BF0' });
    await editList('coupons', (text) => text.replace(',BF0,', ',NEWCOUPON,'));

    const story = await showContact(jobFile, p, { store: b.store });
    expect(story.requested).toEqual({ at: new Date(T0).toISOString(), content: { template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': 'Ana 0', '2': 'BF0' } } } });
    const text = formatStory(story, 'UTC');
    expect(text).toContain('sent      template promo_bf (pt_BR) {{1}}="Ana 0", {{2}}="BF0"');
    expect(text).toMatch(/list now +template promo_bf \(pt_BR\) \{\{1\}\}="Ana 0", \{\{2\}\}="NEWCOUPON" \(the list changed since; not what was sent\)/);

    const shown = await cli(['show', jobFile, p, '--state-dir', b.stateDir]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('{{2}}="BF0"');
  });

  it('says the content was not recorded when the journal predates it, and labels the list\'s message as such', async () => {
    const p = phone(1);
    const jobFile = await b.job('old', [{ phone: p }]);
    await b.run(await b.prepare(jobFile), { clock: () => T0 });
    // A journal written before attempts carried their content.
    const journal = path.join(b.stateDir, 'old', 'checkpoint.jsonl');
    const lines = (await readFile(journal, 'utf8')).trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    await writeFile(journal, `${lines.map(({ content, ...rest }) => JSON.stringify(rest.t === 'header' ? { content, ...rest } : rest)).join('\n')}\n`);

    const story = await showContact(jobFile, p, { store: b.store });
    expect(story.requested).toEqual({ at: new Date(T0).toISOString() });
    expect(formatStory(story, 'UTC')).toMatch(/list now +template promo_bf \(pt_BR\) .*"BF0" \(what was sent was not recorded by this journal\)/);
  });
});

describe("plan's would-send-now and the contacts deferred to later", () => {
  it('counts a contact the provider deferred until tomorrow as deferred, with its reason and time, not as sent now', async () => {
    const [limited, fine] = [phone(0, 1), phone(1, 1)];
    const jobFile = await b.job('limited', [{ phone: limited }, { phone: fine }]);
    b.sim.state.forceProviderError([limited], 131049);
    const first = await b.run(await b.prepare(jobFile), { clock: () => T0 });
    expect(first.thisRun).toMatchObject({ sent: 1, deferred: 1 });
    b.sim.state.clearProviderError([limited]);

    const plan = await planJob(await b.prepare(jobFile), { store: b.store, clock: () => T0 + HOUR });
    expect(plan.wouldSendNow).toBe(0);
    expect(plan.byAction).toEqual({ template: 1, 'defer:marketing_limit': 1 });
    expect(plan.deferred).toEqual([{ reason: 'marketing_limit', count: 1, notBefore: new Date(T0 + 24 * HOUR).toISOString() }]);
    expect(formatPlan(plan, 'UTC')).toMatch(/1 deferred: marketing_limit until/);
    // The run agrees: nothing goes before tomorrow.
    const again = await b.run(await b.prepare(jobFile), { clock: () => T0 + HOUR });
    expect(again.thisRun.sent).toBe(0);
  });
});

describe('plan of a job whose message changed since its run', () => {
  it('refuses as run does (exit 2), and previews the new content with --force-changed', async () => {
    const jobFile = await b.job('changed', [{ phone: phone(0, 2) }, { phone: phone(1, 2) }]);
    await b.run(await b.prepare(jobFile), { clock: () => T0 });
    const job = JSON.parse(await readFile(jobFile, 'utf8')) as { message: { template: { variables: Record<string, string> } } };
    job.message.template.variables['2'] = 'NEW-{{coupon}}';
    await writeFile(jobFile, JSON.stringify(job));

    const err = await planJob(await b.prepare(jobFile), { store: b.store, clock: () => T0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).message).toMatch(/what it sends, or where, changed since this job's checkpoint started .*--force-changed/);
    expect(userErrorExitCode(err as AppError)).toBe(2);

    const forced = await planJob(await b.prepare(jobFile), { store: b.store, clock: () => T0, forceChanged: true });
    expect(forced.contentChanges).toMatch(/message/);
    expect(forced.examples[0]?.message).toContain('NEW-BF0');
    expect(formatPlan(forced, 'UTC')).toMatch(/changed since this job's checkpoint started/);

    const viaCli = await cli(['plan', jobFile, '--state-dir', b.stateDir, '--base-url', b.sim.url], { env: { OUTREACH_TOKEN: b.sim.token } });
    expect(viaCli.code).toBe(2);
    expect(viaCli.stderr).toMatch(/changed since this job's checkpoint started/);
    expect((await cli(['plan', jobFile, '--state-dir', b.stateDir, '--base-url', b.sim.url, '--force-changed'], { env: { OUTREACH_TOKEN: b.sim.token } })).code).toBe(0);
  });
});

describe('a skip whose cause is gone is decided again on the next run', () => {
  it('sends a contact skipped no_opt_in once its consent cell says yes, once', async () => {
    const [later, yes] = [phone(0, 3), phone(1, 3)];
    const jobFile = await b.job('consent', [{ phone: later, consent: 'no' }, { phone: yes, consent: 'yes' }], { columns: { opt_in: 'consent' }, require_opt_in: true });
    const first = await b.run(await b.prepare(jobFile), { clock: () => T0 });
    expect(first.thisRun).toMatchObject({ sent: 1, skipped: 1 });
    expect(b.sim.state.startWhatsappCount(later)).toBe(0);

    await editList('consent', (text) => text.replace(`${later},Ana 0,BF0,no,`, `${later},Ana 0,BF0,yes,`));
    const plan = await planJob(await b.prepare(jobFile), { store: b.store, clock: () => T0 + HOUR });
    expect(plan.wouldSendNow).toBe(1);
    const second = await b.run(await b.prepare(jobFile), { clock: () => T0 + HOUR });
    expect(second.thisRun).toMatchObject({ sent: 1 });
    expect(second.summary.byStatus).toMatchObject({ sent: 2, skipped: 0 });
    const third = await b.run(await b.prepare(jobFile), { clock: () => T0 + 2 * HOUR });
    expect(third.thisRun.sent).toBe(0);
    expect(b.sim.state.startWhatsappCount(later)).toBe(1);
    expect(b.sim.state.startWhatsappCount(yes)).toBe(1);
  });

  it('sends a suppressed contact once the suppression is removed; one still suppressed is skipped again without a new journal line', async () => {
    const [lifted, kept] = [phone(0, 4), phone(1, 4)];
    const jobFile = await b.job('lifted', [{ phone: lifted }, { phone: kept }]);
    await suppressPhones(b.store, [lifted, kept], { reason: 'asked by phone' });
    const first = await b.run(await b.prepare(jobFile), { clock: () => T0 });
    expect(first.thisRun).toMatchObject({ sent: 0, skipped: 2 });
    const journal = path.join(b.stateDir, 'lifted', 'checkpoint.jsonl');
    const linesOf = async () => (await readFile(journal, 'utf8')).trimEnd().split('\n').filter((l) => l.includes(kept)).length;
    const keptLines = await linesOf();

    await unsuppressPhones(b.store, [lifted], {});
    const second = await b.run(await b.prepare(jobFile), { clock: () => T0 + HOUR });
    expect(second.thisRun).toMatchObject({ sent: 1, skipped: 1 });
    expect(b.sim.state.startWhatsappCount(lifted)).toBe(1);
    expect(b.sim.state.startWhatsappCount(kept)).toBe(0);
    expect(await linesOf()).toBe(keptLines);
  });

  it('plans a row rejected for a missing variable once the cell is filled (a reject is no state)', async () => {
    const p = phone(0, 5);
    const jobFile = await b.job('fixed', Array.from({ length: 6 }, (_, i) => ({ phone: phone(i, 5) })));
    await editList('fixed', (text) => text.replace(',BF0,', ',,'));
    const first = await b.run(await b.prepare(jobFile), { clock: () => T0 });
    expect(first).toMatchObject({ thisRun: { sent: 5 }, rejected: 1 });
    await editList('fixed', (text) => text.replace(`${p},Ana 0,,`, `${p},Ana 0,BF0,`));
    const second = await b.run(await b.prepare(jobFile), { clock: () => T0 + HOUR });
    expect(second.thisRun.sent).toBe(1);
    expect(b.sim.state.startWhatsappCount(p)).toBe(1);
    expect(received().get(p)).toEqual({ '1': 'Ana 0', '2': 'BF0' });
  });
});
