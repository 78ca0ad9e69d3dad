import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobStatus } from '../../src/app/index.js';
import { createFileStore } from '../../src/checkpoint/backends.js';
import { startSimulator, type RunningSimulator, type SimMessage } from '../../src/sim/index.js';
import { campaign, type Campaign } from '../helpers/campaign.js';
import { repoRoot } from '../helpers/cli.js';
import { cli } from '../helpers/in-process.js';

/** Debian's chromium, driven by playwright-core (.ci/run installs it when it is missing). */
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/** Screenshots for people to look at (gitignored). */
const ARTIFACTS = path.join(repoRoot, 'test-artifacts');
const HOUR = 3_600_000;
/** A contact whose name a spreadsheet would run as a formula. */
const FORMULA_NAME = "=cmd|'/C calc'!A0";
const FORMULA_PHONE = '+5511979990001';

let sim: RunningSimulator;
let c: Campaign;
let env: { env: Record<string, string> };
let tracked: { code: number | null; stdout: string; stderr: string };
/** The simulator's request log index where track began. */
let trackFrom = 0;
const repliers: string[] = [];

/** The simulator's truth: each campaign phone's outbound message. */
function messageOf(phone: string): SimMessage {
  const client = sim.state.clientByPhone(phone);
  const conversation = [...sim.state.conversations.values()].find((x) => x.clientId === client?.id);
  const message = conversation && sim.state.messagesOf(conversation.id).find((m) => m.senderType === 'user');
  if (!message) throw new Error(`no message for ${phone}`);
  return message;
}

function phones(): string[] {
  return [...c.phones, FORMULA_PHONE];
}

function csv(text: string, delimiter = ','): Array<Record<string, string>> {
  return parse(text, { columns: true, bom: true, delimiter, skip_empty_lines: true }) as Array<Record<string, string>>;
}

beforeAll(async () => {
  sim = await startSimulator({ seed: 16, delivery: { delivered: 0.85, read: 0.6, failed: 0.1, failureCodes: { 131026: 0.5, 131050: 0.5 } } });
  // track.max_age_hours of 1.8 s: --until-settled ends within a few passes instead of three days.
  c = await campaign({ rows: 60, bad: 2, emptyCoupon: 1, job: { track: { max_age_hours: 0.0005 }, rate: { per_second: 200, concurrency: 8 } } });
  await appendFile(path.join(c.dir, 'contacts.csv'), `${FORMULA_PHONE};${FORMULA_NAME};BF999\n`);
  env = { env: { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: c.stateDir } };

  expect((await cli(['run', c.jobFile, '--no-progress'], env)).code).toBe(0);
  for (const phone of c.phones.slice(0, 5)) {
    sim.state.inbound(phone, 'Quero o cupom!');
    repliers.push(phone);
  }
  expect((await cli(['sync', '--since', new Date(Date.now() - HOUR).toISOString()], env)).code).toBe(0);
  sim.state.advanceClock(2 * HOUR); // every delivery, read and failure is due on the platform
  trackFrom = sim.state.requests.length;
  tracked = await cli(['track', c.jobFile, '--until-settled', '--interval', '1'], env);
}, 60_000);

afterAll(async () => {
  await sim?.close();
  await c?.cleanup();
});

describe('a campaign with delivery shares, tracked until settled', () => {
  it('track reads every message until each is read, failed or too old, and exits 0', () => {
    expect(tracked.stderr).toMatch(/track pass 1: 61 messages read/);
    expect(tracked.code).toBe(0);
    expect(tracked.stdout).toMatch(/still to watch/);
    expect(tracked.stdout).toMatch(/0 still to watch/);
    // Each message read with the smallest request that returns it.
    const reads = sim.state.requests.slice(trackFrom).filter((r) => r.endpoint === 'GET /chat/conversations/{id}/messages');
    expect(reads.length).toBeGreaterThanOrEqual(61);
    // Incremental: a settled message is not read again; only the ones still to watch are.
    const firstPass = new Set(reads.slice(0, 61).map((r) => r.path));
    expect(firstPass.size).toBe(61);
    const settledOnFirst = phones().map(messageOf).filter((m) => m.deliveryStatus === 'read' || m.deliveryStatus === 'failed');
    for (const m of settledOnFirst) expect(reads.slice(61).filter((r) => r.path.endsWith(`/${m.conversationId}/messages`) && r.query?.after_id === String(m.id - 1))).toHaveLength(0);
    for (const r of reads) expect(r.query).toMatchObject({ limit: '1', after_id: expect.stringMatching(/^\d+$/) });
  });

  it('status shows the funnel sent → delivered → read → replied with the simulator’s numbers, and failures by reason', async () => {
    const truth = phones().map(messageOf);
    const delivered = truth.filter((m) => m.deliveryStatus === 'delivered' || m.deliveryStatus === 'read').length;
    const read = truth.filter((m) => m.deliveryStatus === 'read').length;
    const failed = truth.filter((m) => m.deliveryStatus === 'failed');
    expect(failed.length).toBeGreaterThan(0);

    const json = await cli(['status', c.jobFile, '--json'], env);
    expect(JSON.parse(json.stdout).funnel).toMatchObject({ sent: 61, tracked: 61, delivered, read, replied: 5, failed: failed.length });
    const byCode = JSON.parse(json.stdout).funnel.failures as Array<{ code: number; class: string; count: number }>;
    for (const code of [131026, 131050]) {
      const count = failed.filter((m) => m.failureReason.includes(`#${code}`)).length;
      if (count > 0) expect(byCode).toContainEqual(expect.objectContaining({ code, count, class: code === 131026 ? 'undeliverable' : 'opted_out' }));
    }

    const text = await cli(['status', c.jobFile], env);
    expect(text.stdout).toMatch(new RegExp(`delivered\\s+${delivered}\\s+${((delivered / 61) * 100).toFixed(1)}%`));
    expect(text.stdout).toMatch(new RegExp(`read\\s+${read}\\s+`));
    expect(text.stdout).toMatch(/replied\s+5\s+8\.2%/);
    expect(text.stdout).toMatch(/delivery failures by reason/);
  });

  it('report.csv has each contact’s name, phone as written, source file and line, and its delivery', async () => {
    const rows = csv(await readFile(path.join(c.stateDir, 'cli-test', 'report.csv'), 'utf8'));
    expect(rows).toHaveLength(61);
    expect(Object.keys(rows[0]!)).toEqual(expect.arrayContaining(['name', 'phone_as_written', 'source_file', 'source_line', 'delivery_status', 'delivered_at', 'read_at', 'failure_code']));
    expect(Object.keys(rows[0]!)).not.toContain('variant'); // the job has no variants
    for (const row of rows) {
      const m = messageOf(row.phone!);
      expect(row.delivery_status).toBe(m.deliveryStatus);
      expect(row.read_at).toBe(m.read_at ?? '');
      expect(row.failure_code).toBe(m.deliveryStatus === 'failed' ? /#(\d+)/.exec(m.failureReason)![1] : '');
      if (m.deliveryStatus === 'delivered') expect(row.delivered_at).toBe(new Date(m.updatedAt).toISOString());
      expect(path.basename(row.source_file!)).toBe('contacts.csv');
    }
    const first = rows.find((r) => r.phone === c.phones[7])!;
    expect(first).toMatchObject({ name: 'Ana 7', phone_as_written: '(011) 97000-0007', source_line: '9', line: '9' });
  });

  it('report --excel writes UTF-8 with BOM and ";" that a CSV parser reads back, formula-safe, with --columns adding the list’s own', async () => {
    const r = await cli(['report', c.jobFile, '--excel', '--columns', '--out', path.join(c.dir, 'excel.csv')], env);
    expect(r.code).toBe(0);
    const bytes = await readFile(path.join(c.dir, 'excel.csv'));
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = csv(bytes.toString('utf8'), ';');
    expect(rows).toHaveLength(61);
    expect(Object.keys(rows[0]!)).toEqual(expect.arrayContaining(['phone', 'delivery_status', 'name', 'Phone', 'First name', 'coupon']));
    // The spreadsheet form writes each phone as a text formula, so that it opens as text.
    const formula = rows.find((x) => x.phone === `="${FORMULA_PHONE}"`)!;
    expect(formula.name).toBe(`'${FORMULA_NAME}`);
    expect(formula['First name']).toBe(`'${FORMULA_NAME}`);
    expect(rows.find((x) => x.phone === `="${c.phones[3]}"`)).toMatchObject({ coupon: 'BF3', Phone: '(011) 97000-0003', name: 'Ana 3' });

    const some = await cli(['report', c.jobFile, '--columns', 'coupon', '--out', path.join(c.dir, 'some.csv')], env);
    expect(some.code).toBe(0);
    const header = Object.keys(csv(await readFile(path.join(c.dir, 'some.csv'), 'utf8'))[0]!);
    expect(header.at(-1)).toBe('coupon');
    expect(header).not.toContain('Phone');
    const wrong = await cli(['report', c.jobFile, '--columns', 'cupom'], env);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/no column "cupom" \(its columns are: Phone, First name, coupon\)/);
  });

  it('show tells one contact’s story: the row as written, the message, each request and answer, ids, delivery, reply, what comes next', async () => {
    const phone = repliers[0]!;
    const m = messageOf(phone);
    const text = await cli(['show', c.jobFile, '(011) 97000-0000'], env);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`${phone} in job cli-test`);
    expect(text.stdout).toMatch(/contacts\.csv line 2, phone written "\(011\) 97000-0000"/);
    expect(text.stdout).toContain('Phone: (011) 97000-0000 | First name: Ana 0 | coupon: BF0');
    expect(text.stdout).toContain('sent      template promo_bf (pt_BR) {{1}}="Ana 0", {{2}}="BF0"');
    expect(text.stdout).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [A-Za-z_/]+ {2}→ start-whatsapp \(template\)/);
    expect(text.stdout).toMatch(new RegExp(`← sent: conversation ${m.conversationId}, client \\d+, message ${m.id}`));
    expect(text.stdout).toMatch(new RegExp(`delivery  ${m.deliveryStatus}`));
    expect(text.stdout).toMatch(/reply {5}\d{4}-/);
    expect(text.stdout).toMatch(/next {6}nothing: it was sent/);

    const json = JSON.parse((await cli(['show', c.jobFile, phone, '--json'], env)).stdout);
    expect(json).toMatchObject({ phone, row: { line: 2, phoneAsWritten: '(011) 97000-0000' }, requested: { content: { template: { name: 'promo_bf', variables: { '2': 'BF0' } } } }, state: { status: 'sent', messageId: String(m.id) }, delivery: { status: m.deliveryStatus } });
    expect(json.events.map((e: { t: string }) => e.t)).toEqual(['attempt', 'sent', 'delivery']);
    expect(Date.parse(json.repliedAt)).toBeGreaterThan(Date.parse(json.sentAt));
  });

  it.skipIf(!existsSync(CHROMIUM))(
    'report --format html shows the same numbers as status in Chromium, fetches nothing, and fits a phone',
    async () => {
      const r = await cli(['report', c.jobFile, '--format', 'html'], env);
      expect(r.code).toBe(0);
      const file = path.join(c.stateDir, 'cli-test', 'report.html');
      expect(r.stdout).toContain(file);
      const status = await jobStatus(c.jobFile, { store: createFileStore(c.stateDir) });
      await mkdir(ARTIFACTS, { recursive: true });

      const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      try {
        for (const [name, width] of [['desktop', 1100], ['phone', 390]] as const) {
          const context = await browser.newContext({ viewport: { width, height: 900 } });
          const requests: string[] = [];
          context.on('request', (req) => requests.push(req.url()));
          await context.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
          const page = await context.newPage();
          await page.goto(`file://${file}`, { waitUntil: 'load' });
          const read = (selector: string) => page.locator(selector).innerText().then((t) => Number(t.replace(/,/g, '')));

          expect(await read('[data-metric="sent"]')).toBe(status.summary.byStatus.sent);
          expect(await read('[data-metric="total"]')).toBe(status.summary.total);
          expect(await read('[data-metric="failed"]')).toBe(status.summary.byStatus.failed);
          expect(await read('[data-metric="in_doubt"]')).toBe(status.summary.byStatus.in_doubt);
          expect(await read('[data-metric="pending"]')).toBe(status.summary.byStatus.pending);
          expect(await read('[data-metric="rejected"]')).toBe(3);
          expect(await read('[data-metric="rate_limit"]')).toBeGreaterThan(0);
          for (const stage of ['sent', 'delivered', 'read', 'replied', 'failed'] as const) {
            expect(await read(`[data-funnel="${stage}"]`), stage).toBe(status.funnel[stage]);
          }
          for (const f of status.funnel.failures) expect(await read(`[data-failure="delivery:${f.code}"]`)).toBe(f.count);
          expect(await read('[data-reject="phone_invalid"]')).toBe(2);
          expect(await read('[data-reject="missing_variable:coupon"]')).toBe(1);

          expect(requests.every((url) => url.startsWith('file:'))).toBe(true);
          expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
          await page.screenshot({ path: path.join(ARTIFACTS, `report-${name}.png`), fullPage: true });
          await context.close();
        }
      } finally {
        await browser.close();
      }
    },
    30_000,
  );
});
