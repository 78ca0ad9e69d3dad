/**
 * The console in Chromium (Debian's, driven by playwright-core, as report.html's test does), over a
 * store holding a finished job of company 1 and a job of company 2 running all along on its simulator
 * at a slow rate, started in-process: both pages with the real counts, the numbers of the running job
 * moving on screen by themselves, the filter and the CSV as `report` writes them, a phone's width, the
 * stop button, and the token. One browser for the file, one page for the loopback console's tests.
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobStatus, type JobStatus } from '../../src/app/index.js';
import { createFileStore, type StateStore } from '../../src/checkpoint/backends.js';
import { startConsole, type RunningConsole } from '../../src/console/index.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { campaign, type Campaign } from '../helpers/campaign.js';
import { repoRoot, type CliResult } from '../helpers/cli.js';
import { cli } from '../helpers/in-process.js';
import { waitFor } from '../helpers/wait.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/**
 * The console's job page as the README and docs/watching.md show it: taken at every run into
 * test-artifacts/, and into docs/images/ with UPDATE_SCREENSHOTS=1 (so a run of the suite leaves the
 * checkout as it was).
 */
const SCREENSHOT = process.env.UPDATE_SCREENSHOTS ? path.join(repoRoot, 'docs', 'images', 'console.png') : path.join(repoRoot, 'test-artifacts', 'console.png');
const TOKEN = 'browser-test-token-5d1e0b';

let sim: RunningSimulator;
/** Company 2's platform account, where the slow job runs: its sends leave company 1's messaging limit as the finished job left it. */
let sim2: RunningSimulator;
let stateDir: string;
let store: StateStore;
let finished: Campaign;
/** The finished job's figures as `status` reads them (nothing moves them while the file runs). */
let autumn: JobStatus;
let slow: Campaign;
let consoleApp: RunningConsole;
let browser: Browser;
/** The loopback console's tests share one page (a context of its own, so the token's test starts signed out). */
let page: Page;
/** Requests of `page` to any server but the console's, since the test began (see `open`). */
let elsewhere: string[] = [];
let env: { env: Record<string, string> };
/** The slow job's run, once started (in this process: the console's stop reaches it as one SIGTERM does). */
let slowRun: Promise<CliResult> | undefined;
const signalled: number[] = [];

/** What `outreach stop` sends to a process of this host, delivered to the run of this process. */
function signal(pid: number): boolean {
  signalled.push(pid);
  if (pid !== process.pid) return false;
  process.emit('SIGTERM', 'SIGTERM');
  return true;
}

beforeAll(async () => {
  sim = await startSimulator({ seed: 36, faults: { providerErrors: { 131026: 0.15, 131049: 0.1 } }, delivery: { delivered: 0.8, read: 0.5, failed: 0.1 } });
  sim2 = await startSimulator({ seed: 37, companyId: 2, faults: { providerErrors: { 131026: 0.15 } } });
  stateDir = await mkdtemp(path.join(tmpdir(), 'outreach-console-state-'));
  env = { env: { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: stateDir } };
  finished = await campaign({ rows: 40, name: 'autumn', job: { limits: { daily_unique_recipients: 2000 } } });
  // About one contact a second: its numbers move between two readings of the page.
  slow = await campaign({ rows: 400, name: 'winter', firstRow: 1000, job: { company_id: 2, rate: { per_second: 2, concurrency: 1 }, limits: { daily_unique_recipients: 2000 } } });
  store = createFileStore(stateDir);
  // The browser starts while the finished job is made (the stop reaches the run as SIGTERM emitted in this process: the browser must not take it as its own).
  const launched = chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, handleSIGTERM: false, handleSIGINT: false, handleSIGHUP: false });
  try {
    expect([0, 1]).toContain((await cli(['run', finished.jobFile, '--no-progress'], env)).code);
    sim.state.advanceClock(3_600_000);
    expect([0, 1]).toContain((await cli(['track', finished.jobFile], env)).code);
    expect((await cli(['report', finished.jobFile], env)).code).toBeLessThan(2);
    autumn = await jobStatus(finished.jobFile, { store });
  } finally {
    browser = await launched;
  }
  consoleApp = await startConsole({ store, port: 0, host: '127.0.0.1', location: stateDir, thisHost: hostname(), signal });
  // The slow job runs from here to the stop's test (the in-process CLI's last call: it holds stdout and the environment until it ends).
  slowRun = cli(['run', slow.jobFile, '--no-progress'], { env: { ...env.env, OUTREACH_BASE_URL: sim2.url, OUTREACH_TOKEN: sim2.token } });
  const context = await browser.newContext({ acceptDownloads: true });
  context.on('request', (req) => {
    if (!req.url().startsWith(consoleApp.url)) elsewhere.push(req.url());
  });
  page = await context.newPage();
}, 120_000);

afterAll(async () => {
  if (slowRun !== undefined) {
    // A run the test left going: stopped, then cut.
    process.emit('SIGTERM', 'SIGTERM');
    process.emit('SIGTERM', 'SIGTERM');
    await slowRun.catch(() => undefined);
  }
  await browser?.close();
  await consoleApp?.close();
  await sim?.close();
  await sim2?.close();
  await finished?.cleanup();
  await slow?.cleanup();
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
}, 60_000);

/** The shared page at `at` of the console, in a window of `viewport`, counting its requests elsewhere afresh. */
async function open(at: string, viewport = { width: 1100, height: 900 }): Promise<Page> {
  await page.setViewportSize(viewport);
  elsewhere = [];
  await page.goto(`${consoleApp.url}${at}`);
  return page;
}

/** Waits until the slow job's run holds it and has sent to someone (it starts in beforeAll). */
async function winterRunning(): Promise<void> {
  await waitFor(async () => (await store.runningBy('winter')) !== undefined && ((await store.readJob('winter'))?.states.size ?? 0) > 0, 30_000, 100);
}

const count = (text: string) => Number(text.replace(/,/g, ''));

async function expectCounts(page: Page, scope: string, status: JobStatus): Promise<void> {
  const read = async (selector: string) => count(await page.locator(`${scope} ${selector}`).first().innerText());
  expect(await read('[data-metric="total"]')).toBe(status.summary.total);
  for (const s of ['sent', 'failed', 'in_doubt', 'pending', 'skipped', 'deferred'] as const) expect(await read(`[data-metric="${s}"]`), s).toBe(status.summary.byStatus[s]);
  for (const stage of ['sent', 'delivered', 'read', 'replied'] as const) expect(await read(`[data-funnel="${stage}"]`), stage).toBe(status.funnel[stage]);
}

describe('the console in Chromium', () => {
  it('lists every job of the store with the counts status gives, the rate asked, and the messaging limit left', async () => {
    await open('/');
    expect(autumn.summary.byStatus.failed).toBeGreaterThan(0);
    await expectCounts(page, '[data-job="autumn"]', autumn);
    expect(await page.locator('[data-job="autumn"] [data-phase]').getAttribute('data-phase')).toBe(autumn.notDone > 0 ? 'idle' : 'finished');
    expect(count(await page.locator('[data-job="autumn"] [data-metric="rate_asked"]').innerText())).toBe(12_000);
    expect(count(await page.locator('#limits [data-company="1"] [data-metric="limit_left"]').innerText())).toBe(autumn.messaging.room);
    expect(elsewhere).toEqual([]);
  });

  it("shows a job's page with its real counts, failures by class with an example, and deferred by reason", async () => {
    await open('/jobs/autumn');
    const status = autumn;
    await expectCounts(page, 'main', status);
    for (const c of status.summary.failureClasses) {
      expect(count(await page.locator(`[data-failure="send:${c.class}"]`).innerText())).toBe(c.count);
      await expect.poll(() => page.locator('#failures').innerText()).toContain(c.example);
    }
    for (const f of status.funnel.failures) expect(count(await page.locator(`[data-failure="delivery:${f.code}"]`).innerText())).toBe(f.count);
    for (const d of status.deferred) expect(count(await page.locator(`[data-deferred="${d.reason}"]`).innerText())).toBe(d.count);
    expect(count(await page.locator('[data-metric="done"]').innerText())).toBe(status.summary.total - status.summary.byStatus.pending);
    expect(elsewhere).toEqual([]);
  });

  it('filters the recipients by status and phone as report.csv has them, and downloads them as report writes them', async () => {
    const [header, ...lines] = (await readFile(path.join(stateDir, 'autumn', 'report.csv'), 'utf8')).trimEnd().split('\n');
    const failed = lines.filter((l) => l.split(',')[1] === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    await open('/jobs/autumn');
    await page.selectOption('select[name="status"]', 'failed');
    await page.click('form.filter button');
    await page.waitForURL(/status=failed/);
    const phones = await page.locator('#recipient-rows tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-phone')));
    expect(phones).toEqual(failed.map((l) => l.split(',')[0]));
    for (const s of await page.locator('#recipient-rows [data-status]').allInnerTexts()) expect(s).toBe('failed');

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#csv')]);
    expect(download.suggestedFilename()).toBe('autumn-contacts-failed.csv');
    const csv = await readFile((await download.path()) ?? '', 'utf8');
    expect(csv).toBe(`${[header, ...failed].join('\n')}\n`);

    const digits = (failed[0]?.split(',')[0] ?? '').slice(-3);
    await page.fill('input[name="phone"]', `-${digits}`);
    await page.selectOption('select[name="status"]', '');
    await page.click('form.filter button');
    await page.waitForURL(/phone=/);
    expect(await page.locator('#recipient-rows tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-phone')))).toEqual(lines.map((l) => l.split(',')[0]).filter((p) => p?.includes(digits)));
    // Pages of 50: the 40 rows are one page, with no next.
    await page.goto(`${consoleApp.url}/jobs/autumn`);
    expect(await page.locator('#recipient-rows tbody tr').count()).toBe(lines.length);
    expect(await page.locator('a[rel="next"]').count()).toBe(0);
    expect(elsewhere).toEqual([]);
  });

  it('fits a 390×844 phone without scrolling sideways, on both pages', async () => {
    await winterRunning();
    for (const at of ['/', '/jobs/autumn', '/jobs/autumn?status=failed', '/jobs/winter']) {
      await open(at, { width: 390, height: 844 });
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), at).toBe(true);
    }
  });

  it("moves a running job's numbers on screen by themselves (no reload), on its page and on the list", async () => {
    await winterRunning();
    const list = await page.context().newPage();
    await list.goto(`${consoleApp.url}/`);
    await open('/jobs/winter', { width: 1100, height: 1500 });
    expect(await page.locator('[data-phase]').first().getAttribute('data-phase')).toBe('running');
    expect(await page.locator('[data-metric="host"]').innerText()).toBe(hostname());
    for (const p of [page, list]) await p.evaluate('window.notReloaded = true');
    const sentOnPage = async () => count(await page.locator('[data-metric="sent"]').innerText());
    const sentOnList = async () => count(await list.locator('[data-job="winter"] [data-metric="sent"]').innerText());
    const [first, listed] = [await sentOnPage(), await sentOnList()];
    const moving = { timeout: 30_000, interval: 250 };
    await Promise.all([
      expect.poll(sentOnPage, moving).toBeGreaterThan(first),
      expect.poll(sentOnList, moving).toBeGreaterThan(listed),
      expect.poll(async () => page.locator('[data-metric="rate_now"]').innerText(), moving).toMatch(/^\d+(\.\d)?$/),
    ]);
    for (const p of [page, list]) expect(await p.evaluate('window.notReloaded')).toBe(true);
    expect(elsewhere).toEqual([]);
    await mkdir(path.dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT });
    await list.close();
  });

  it('refuses a stop posted from another site, and the run goes on', async () => {
    await winterRunning();
    await page.goto(`${sim.url}/elsewhere`);
    await page.setContent(`<form method="post" action="${consoleApp.url}/jobs/winter/stop"><input name="csrf" value="guessed"><button>go</button></form>`);
    const [answer] = await Promise.all([page.waitForResponse(`${consoleApp.url}/jobs/winter/stop`), page.click('button')]);
    expect(answer.status()).toBe(403);
    expect(await page.locator('body').innerText()).toContain('did not come from a page of this console');
    expect(signalled).toEqual([]);
    expect(await store.runningBy('winter')).toBeDefined();
  });

  it('stops the run with the stop button, after a confirmation, as outreach stop does', async () => {
    await winterRunning();
    await open('/jobs/winter');
    await page.click('#stop');
    await page.waitForURL(/\/jobs\/winter\/stop$/);
    expect(await page.locator('main').innerText()).toContain(`pid ${process.pid} on host ${hostname()}`);
    await page.click('#confirm-stop');
    await page.waitForURL(/stopped=signalled/);
    expect(await page.locator('#notice').innerText()).toContain(`Asked pid ${process.pid} on this host to stop job winter`);
    expect(signalled).toEqual([process.pid]);
    const ended = await slowRun;
    slowRun = undefined;
    expect(ended?.code).toBe(3);
    expect(await store.runningBy('winter')).toBeUndefined();
    const status = await jobStatus(slow.jobFile, { store });
    expect(status.summary.byStatus.pending).toBeGreaterThan(0);
    // The page turns idle by itself, with the counts status gives.
    await expect.poll(async () => page.locator('[data-section="state"] [data-phase]').getAttribute('data-phase'), { timeout: 30_000, interval: 250 }).toBe('idle');
    await expect.poll(async () => count(await page.locator('[data-metric="sent"]').innerText()), { timeout: 30_000, interval: 250 }).toBe(status.summary.byStatus.sent);
  });
});

describe('the console with a token, in Chromium', () => {
  it('asks for the token, refuses a wrong one, then shows the jobs; a stop from another site is refused', async () => {
    const guarded = await startConsole({ store, port: 0, host: '127.0.0.1', token: TOKEN, location: stateDir, thisHost: hostname(), signal });
    try {
      // A context of its own: signed out.
      const guest = await browser.newPage();
      await guest.goto(`${guarded.url}/jobs/autumn`);
      await guest.waitForURL(/\/login\?next=/);
      await guest.fill('#token', 'not-the-token');
      await guest.click('button[type="submit"]');
      expect(await guest.locator('#wrong').innerText()).toContain("That is not the console's token");
      await guest.fill('#token', TOKEN);
      await guest.click('button[type="submit"]');
      await guest.waitForURL(`${guarded.url}/jobs/autumn`);
      expect(count(await guest.locator('[data-metric="sent"]').innerText())).toBe(autumn.summary.byStatus.sent);
      expect(await guest.content()).not.toContain(TOKEN);

      await guest.goto(`${sim.url}/elsewhere`);
      await guest.setContent(`<form method="post" action="${guarded.url}/jobs/autumn/stop"><input name="csrf" value="guessed"><button>go</button></form>`);
      const [answer] = await Promise.all([guest.waitForResponse(`${guarded.url}/jobs/autumn/stop`), guest.click('button')]);
      // Another port of this host is the same site to a browser: the session cookie (SameSite=Strict) goes along, and the origin check refuses the post.
      expect(answer.status()).toBe(403);
      expect(await guest.locator('body').innerText()).toContain('did not come from a page of this console');
      await guest.context().close();
    } finally {
      await guarded.close();
    }
  });
});
