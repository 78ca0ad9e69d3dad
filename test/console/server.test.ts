/**
 * `outreach console` over HTTP: where it listens and when it refuses to start, who it lets in (loopback,
 * the token by bearer, basic auth or sign-in), form posts from its own pages only, /healthz and /metrics,
 * over a state folder and over PostgreSQL.
 */
import { request } from 'node:http';
import { hostname } from 'node:os';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { DateTime } from 'luxon';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { jobStatus } from '../../src/app/index.js';
import { CliError, ExitCode } from '../../src/cli/exit.js';
import { consoleSettings, runConsole } from '../../src/cli/console-session.js';
import { createFileStore, createPgStore } from '../../src/checkpoint/backends.js';
import { startConsole } from '../../src/console/index.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { campaign, type Campaign } from '../helpers/campaign.js';
import { cli } from '../helpers/in-process.js';
import { freePort, schemaUrl } from '../helpers/pg-cluster.js';
import { checkMetrics, promtoolBin, samples } from '../helpers/prometheus-tools.js';
import { waitFor } from '../helpers/wait.js';

const TOKEN = 'console-token-for-tests-7f3a9c';
const pgUrl = inject('pgUrl');
let sim: RunningSimulator;
let c: Campaign;

beforeAll(async () => {
  sim = await startSimulator({ seed: 35, faults: { providerErrors: { 131026: 0.2 } } });
  c = await campaign({ rows: 12, job: { limits: { daily_unique_recipients: 500 } } });
  const env = { env: { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: c.stateDir } };
  expect((await cli(['run', c.jobFile, '--no-progress'], env)).code).toBeLessThan(2);
}, 60_000);

afterAll(async () => {
  await sim?.close();
  await c?.cleanup();
});

/** The console of the CLI session (`outreach console`'s own code) until `stop`; its URL and what it printed. */
async function consoleOf(flags: { host?: string; stateDir?: string; store?: string; tz?: string; locale?: string }, env: NodeJS.ProcessEnv) {
  const { host, ...rest } = flags;
  const settings = consoleSettings({ port: '0', host: host ?? '127.0.0.1', ...rest }, env);
  const out = new PassThrough();
  let text = '';
  out.on('data', (d: Buffer) => (text += d.toString()));
  const stop = new AbortController();
  const done = runConsole(settings, { out, logger: pino({ level: 'silent' }), stop: stop.signal });
  let failed: unknown;
  done.catch((err: unknown) => (failed = err ?? new Error('the console failed')));
  await waitFor(() => failed !== undefined || /listening on (\S+)\//.test(text));
  if (failed !== undefined) throw failed;
  const port = /listening on http:\/\/[^:]+:(\d+)\//.exec(text)?.[1];
  if (port === undefined) throw new Error(`the console did not start: ${text}`);
  return {
    url: `http://127.0.0.1:${port}`,
    printed: () => text,
    async close() {
      stop.abort();
      await done;
    },
  };
}

describe('where the console listens', () => {
  it('refuses an address off loopback without OUTREACH_CONSOLE_TOKEN, in one sentence (exit 2), and starts there with it', async () => {
    const refused = (() => {
      try {
        consoleSettings({ port: '0', host: '0.0.0.0', stateDir: c.stateDir }, {});
      } catch (err) {
        return err;
      }
      return undefined;
    })();
    expect(refused).toBeInstanceOf(CliError);
    expect((refused as CliError).exitCode).toBe(ExitCode.invalid);
    const printed = await cli(['console', '--host', '0.0.0.0', '--port', '0', '--state-dir', c.stateDir], { env: { OUTREACH_CONSOLE_TOKEN: '' } });
    expect(printed.code).toBe(2);
    expect(printed.stdout).toBe('');
    expect(printed.stderr.trim().split('\n')).toHaveLength(1);
    expect(printed.stderr).toMatch(/--host 0\.0\.0\.0 is reachable from other machines.*set OUTREACH_CONSOLE_TOKEN/);
    expect(consoleSettings({ port: '0', host: '0.0.0.0', stateDir: c.stateDir }, { OUTREACH_CONSOLE_TOKEN: TOKEN }).token).toBe(TOKEN);
    expect(consoleSettings({ port: '0', host: '::1', stateDir: c.stateDir }, {}).token).toBeUndefined();
  });

  it('says a port in use in one sentence', async () => {
    const first = await consoleOf({ stateDir: c.stateDir }, {});
    try {
      const port = new URL(first.url).port;
      const err = await runConsole(consoleSettings({ port, host: '127.0.0.1', stateDir: c.stateDir }, {}), { out: new PassThrough(), logger: pino({ level: 'silent' }), stop: new AbortController().signal }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CliError);
      expect((err as Error).message).toBe(`port ${port} is already in use; pass --port with a free port, or --port 0 for any`);
    } finally {
      await first.close();
    }
  });

  it('on loopback without a token, serves this machine and refuses a page reached through another host name', async () => {
    const running = await consoleOf({ stateDir: c.stateDir }, {});
    try {
      expect(running.printed()).toMatch(/^console listening on http:\/\/127\.0\.0\.1:\d+\/ \(open to this machine only\)\nstate: .*\nhealth: .*\/healthz, metrics: .*\/metrics\n/);
      expect((await fetch(`${running.url}/`)).status).toBe(200);
      const rebound = await rawGet(`${running.url}/`, { host: `attacker.example:${new URL(running.url).port}` });
      expect(rebound.status).toBe(403);
      expect(rebound.body).toMatch(/answers only on this machine's loopback/);
      expect((await rawGet(`${running.url}/`, { host: `localhost:${new URL(running.url).port}` })).status).toBe(200);
    } finally {
      await running.close();
    }
    expect(running.printed()).toMatch(/console stopped\n$/);
  });
});

describe('the console with OUTREACH_CONSOLE_TOKEN', () => {
  it('asks every request but /healthz for the token: bearer, basic auth, or the sign-in page’s cookie; never shows it', async () => {
    const running = await consoleOf({ host: '0.0.0.0', stateDir: c.stateDir }, { OUTREACH_CONSOLE_TOKEN: TOKEN });
    const seen: string[] = [running.printed()];
    try {
      expect(running.printed()).toMatch(/it asks for OUTREACH_CONSOLE_TOKEN/);
      const page = await fetch(`${running.url}/jobs/cli-test`, { redirect: 'manual' });
      expect(page.status).toBe(303);
      expect(page.headers.get('location')).toBe('/login?next=%2Fjobs%2Fcli-test');
      const api = await fetch(`${running.url}/api/overview`);
      expect(api.status).toBe(401);
      expect(api.headers.get('www-authenticate')).toBe('Bearer realm="outreach console"');
      expect((await fetch(`${running.url}/metrics`)).status).toBe(401);
      expect((await fetch(`${running.url}/api/overview`, { headers: { authorization: 'Bearer not-it' } })).status).toBe(401);
      expect((await fetch(`${running.url}/healthz`)).status).toBe(200);

      const bearer = await fetch(`${running.url}/api/overview`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(bearer.status).toBe(200);
      const body = await bearer.text();
      seen.push(body);
      expect(body).toContain('data-job=\\"cli-test\\"');
      const basic = await fetch(`${running.url}/metrics`, { headers: { authorization: `Basic ${Buffer.from(`anyone:${TOKEN}`).toString('base64')}` } });
      expect(basic.status).toBe(200);

      // Sign in as a browser does: the form's CSRF token with its cookie, then the session cookie.
      const login = await fetch(`${running.url}/login?next=/jobs/cli-test`);
      const form = await login.text();
      seen.push(form);
      const csrfCookie = cookieOf(login, 'outreach_console_csrf');
      const csrf = /name="csrf" value="([^"]+)"/.exec(form)?.[1] ?? '';
      const post = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
        fetch(`${running.url}/login`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: running.url, cookie: csrfCookie, ...headers }, body: new URLSearchParams(fields).toString() });
      const wrong = await post({ csrf, token: 'guess', next: '/jobs/cli-test' });
      expect(wrong.status).toBe(401);
      expect(await wrong.text()).toContain("That is not the console's token");
      expect((await post({ csrf: 'forged', token: TOKEN, next: '/' })).status).toBe(403);
      const right = await post({ csrf, token: TOKEN, next: '/jobs/cli-test' });
      expect(right.status).toBe(303);
      expect(right.headers.get('location')).toBe('/jobs/cli-test');
      const setCookie = right.headers.get('set-cookie') ?? '';
      seen.push(setCookie);
      expect(setCookie).toMatch(/outreach_console_session=\d+\.[\w-]+; Max-Age=43200; Path=\/; HttpOnly; SameSite=Strict/);
      const session = cookieOf(right, 'outreach_console_session');
      const signedIn = await fetch(`${running.url}/jobs/cli-test`, { headers: { cookie: session } });
      expect(signedIn.status).toBe(200);
      seen.push(await signedIn.text());
      // An off-site next is not followed.
      expect((await post({ csrf, token: TOKEN, next: '//evil.example/' })).headers.get('location')).toBe('/');
      for (const text of seen) expect(text).not.toContain(TOKEN);
    } finally {
      await running.close();
    }
    expect(running.printed()).not.toContain(TOKEN);
  });

  it('refuses a stop posted from another site, or without the page’s CSRF token; a bearer request needs neither', async () => {
    const running = await consoleOf({ host: '0.0.0.0', stateDir: c.stateDir }, { OUTREACH_CONSOLE_TOKEN: TOKEN });
    try {
      const auth = { authorization: `Basic ${Buffer.from(`:${TOKEN}`).toString('base64')}` };
      const confirm = await fetch(`${running.url}/jobs/cli-test/stop`, { headers: auth });
      expect(confirm.status).toBe(200);
      expect(await confirm.text()).toContain('No run holds job cli-test now');
      const csrfCookie = cookieOf(confirm, 'outreach_console_csrf');
      const page = await (await fetch(`${running.url}/jobs/cli-test/stop`, { headers: { ...auth, cookie: csrfCookie } })).text();
      expect(page).not.toContain('name="csrf"'); // nothing runs: no form to post
      const login = await fetch(`${running.url}/login`);
      const csrf = /name="csrf" value="([^"]+)"/.exec(await login.text())?.[1] ?? '';
      const cookie = cookieOf(login, 'outreach_console_csrf');
      const stop = (headers: Record<string, string>, body: string) => fetch(`${running.url}/jobs/cli-test/stop`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body });
      expect((await stop({ ...auth, origin: running.url, cookie }, '')).status).toBe(403);
      expect((await stop({ ...auth, origin: 'https://evil.example', cookie }, `csrf=${csrf}`)).status).toBe(403);
      const ok = await stop({ ...auth, origin: running.url, cookie }, `csrf=${csrf}`);
      expect(ok.status).toBe(303);
      expect(ok.headers.get('location')).toBe('/jobs/cli-test?stopped=not_running');
      const bearer = await stop({ authorization: `Bearer ${TOKEN}` }, '');
      expect(bearer.status).toBe(303);
    } finally {
      await running.close();
    }
  });
});

describe("the console's figures and times in the reader's locale and zone", () => {
  /** Each recipient's time as the job page shows it, with the instant it stands for. */
  async function recipientTimes(url: string): Promise<{ iso: string; text: string }[]> {
    const html = await (await fetch(`${url}/jobs/cli-test`)).text();
    const rows = html.slice(html.indexOf('id="recipient-rows"'));
    return [...rows.matchAll(/<time datetime="([^"]+)">([^<]+)<\/time>/g)].map((m) => ({ iso: m[1] ?? '', text: m[2] ?? '' }));
  }

  it('with --locale pt-BR and --tz, writes shares as 43,3% and times day first in that zone, naming it', async () => {
    const running = await consoleOf({ stateDir: c.stateDir, locale: 'pt-BR', tz: 'Asia/Kathmandu' }, {});
    try {
      const page = await (await fetch(`${running.url}/jobs/cli-test`)).text();
      expect(page).toMatch(/data-funnel="delivered">\d+<\/span><span class="share">\d+,\d%</);
      expect(page).not.toMatch(/class="share">\d+\.\d%/);
      const times = await recipientTimes(running.url);
      expect(times.length).toBeGreaterThan(0);
      for (const t of times) {
        const at = DateTime.fromISO(t.iso).setZone('Asia/Kathmandu');
        expect(t.text).toMatch(new RegExp(`^${at.toFormat('dd/MM/yyyy, HH:mm')}(:\\d{2})? Asia/Kathmandu$`));
      }
      const overview = await (await fetch(`${running.url}/`)).text();
      expect(overview).toContain('times in Asia/Kathmandu');
      const live = (await (await fetch(`${running.url}/api/overview`)).json()) as { updated: string; sections: Record<string, string> };
      expect(live.updated).toMatch(/^updated \d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2} Asia\/Kathmandu; updates by itself$/);
      expect(live.sections.jobs).toMatch(/\(\d+,\d%\)/);
      // The CSV download is for machines: ISO times, as without a locale.
      const csv = await (await fetch(`${running.url}/jobs/cli-test/contacts.csv`)).text();
      expect(csv).not.toMatch(/\d{2}\/\d{2}\/\d{4}/);
      expect(csv).toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
    } finally {
      await running.close();
    }
  });

  it("takes the locale from LANG when --locale is not given", async () => {
    const running = await consoleOf({ stateDir: c.stateDir, tz: 'America/Sao_Paulo' }, { LANG: 'pt_BR.UTF-8' });
    try {
      const live = (await (await fetch(`${running.url}/api/overview`)).json()) as { updated: string; sections: Record<string, string> };
      expect(live.updated).toMatch(/^updated \d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2} America\/Sao_Paulo;/);
      expect(live.sections.jobs).toMatch(/\(\d+,\d%\)/);
    } finally {
      await running.close();
    }
  });

  it('without a locale, writes 43.3% and times year first in this machine’s zone, naming it', async () => {
    const running = await consoleOf({ stateDir: c.stateDir }, {});
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
    try {
      const page = await (await fetch(`${running.url}/jobs/cli-test`)).text();
      expect(page).toMatch(/data-funnel="delivered">\d+<\/span><span class="share">\d+\.\d%</);
      const times = await recipientTimes(running.url);
      expect(times.length).toBeGreaterThan(0);
      for (const t of times) {
        const at = DateTime.fromISO(t.iso).setZone(zone);
        expect(t.text).toMatch(new RegExp(`^${at.toFormat('yyyy-MM-dd HH:mm')}(:\\d{2})? ${zone}$`));
      }
    } finally {
      await running.close();
    }
  });

  it('refuses a --locale or --tz that is none, in one sentence (exit 2)', async () => {
    const locale = await cli(['console', '--port', '0', '--state-dir', c.stateDir, '--locale', 'klingon-x']);
    expect(locale.code).toBe(2);
    expect(locale.stderr).toMatch(/--locale: "klingon-x" is not a locale; give a language tag such as --locale pt-BR/);
    const tz = await cli(['console', '--port', '0', '--state-dir', c.stateDir, '--tz', 'Mars/Base']);
    expect(tz.code).toBe(2);
    expect(tz.stderr).toMatch(/--tz: "Mars\/Base" is not a time zone/);
  });
});

describe("the console's /healthz and /metrics", () => {
  it('says the store is reachable, and serves every job’s contacts as status --json counts them, clean for promtool', async () => {
    const running = await consoleOf({ stateDir: c.stateDir }, {});
    try {
      const health = await fetch(`${running.url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.text()).toBe('ok: the store is reachable\n');
      const text = await (await fetch(`${running.url}/metrics`)).text();
      const status = await jobStatus(c.jobFile, { store: createFileStore(c.stateDir) });
      for (const { labels, value } of samples(text, 'outreach_contacts')) {
        expect(labels.campaign).toBe('cli-test');
        expect(value).toBe(status.summary.byStatus[labels.status as keyof typeof status.summary.byStatus]);
      }
      expect(samples(text, 'outreach_contacts')).toHaveLength(6);
      expect(samples(text, 'outreach_messaging_limit_remaining')).toEqual([{ labels: { company: '1' }, value: status.messaging.room }]);
      expect(samples(text, 'outreach_messaging_limit')).toEqual([{ labels: { company: '1' }, value: 500 }]);
      expect(samples(text, 'outreach_job_running')).toEqual([{ labels: { campaign: 'cli-test' }, value: 0 }]);
      expect(samples(text, 'outreach_store_up')).toEqual([{ labels: {}, value: 1 }]);
      if (promtoolBin) expect(await checkMetrics(text)).toEqual({ code: 0, output: '' });
    } finally {
      await running.close();
    }
  });

  it('answers 503 with one line of why while the store cannot be used, never its password, and outreach_store_up 0', async () => {
    const port = await freePort();
    const dir = await mkdtemp(path.join(tmpdir(), 'outreach-console-down-'));
    const store = createPgStore(`postgres://outreach:pw-not-shown@127.0.0.1:${port}/outreach`, { filesDir: dir, connectTimeoutMs: 500 });
    const running = await startConsole({ store, port: 0, host: '127.0.0.1', location: 'postgres://outreach@127.0.0.1/outreach', thisHost: hostname(), signal: () => false });
    try {
      const health = await fetch(`${running.url}/healthz`);
      expect(health.status).toBe(503);
      const line = await health.text();
      expect(line).toMatch(/^unhealthy: the store is unreachable: .*127\.0\.0\.1.*\n$/);
      expect(line).not.toContain('pw-not-shown');
      const text = await (await fetch(`${running.url}/metrics`)).text();
      expect(samples(text, 'outreach_store_up')).toEqual([{ labels: {}, value: 0 }]);
      const page = await fetch(`${running.url}/`);
      expect(page.status).toBe(503);
      const body = await page.text();
      expect(body).toContain('The store cannot be read now');
      expect(body).not.toContain('pw-not-shown');
    } finally {
      await running.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!pgUrl)('the console over a PostgreSQL store', () => {
  it("lists the jobs the database holds with status's counts", async () => {
    const url = schemaUrl(pgUrl);
    const pg = await campaign({ rows: 6, name: 'pg-job' });
    try {
      const env = { env: { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STORE: url, OUTREACH_STATE_DIR: pg.stateDir } };
      expect((await cli(['run', pg.jobFile, '--no-progress'], env)).code).toBeLessThan(2);
      const running = await consoleOf({ store: url }, {});
      try {
        const overview = (await (await fetch(`${running.url}/api/overview`)).json()) as { sections: Record<string, string> };
        expect(overview.sections.jobs).toContain('data-job="pg-job"');
        const sent = /data-metric="sent">(\d+)</.exec(overview.sections.jobs ?? '')?.[1];
        const store = createPgStore(url, { filesDir: pg.stateDir });
        try {
          expect(Number(sent)).toBe((await jobStatus(pg.jobFile, { store })).summary.byStatus.sent);
        } finally {
          await store.close();
        }
        expect(running.printed()).not.toContain('password');
      } finally {
        await running.close();
      }
    } finally {
      await pg.cleanup();
    }
  });
});

/** A GET with headers fetch does not let a caller set (Host). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** `name=value` of a cookie a response sets. */
function cookieOf(res: Response, name: string): string {
  const all = res.headers.getSetCookie();
  const found = all.find((c) => c.startsWith(`${name}=`));
  if (found === undefined) throw new Error(`no cookie ${name} in ${all.join(' | ')}`);
  return found.split(';')[0] ?? '';
}
