/**
 * The console's routes, over a store watch: the pages (`/`, `/jobs/<key>`), their live parts as JSON
 * (`/api/…`), the recipients as CSV, the stop (a confirmation, then a form post), and `/healthz`,
 * `/metrics`. Who may use them is `access.ts`'s; what they show is `app/`'s (the watch) drawn by `pages/`.
 */
import { Hono, type Context } from 'hono';
import { csrf as originCheck } from 'hono/csrf';
import { isRecipientStatus, recipientPage, recipientsCsv, type RecipientFilter, type StoreWatch } from '../app/index.js';
import type { JobRunner } from '../checkpoint/index.js';
import { healthStatus, type HealthSource } from '../webhook/index.js';
import { hostIsLoopback, type Access } from './access.js';
import { CONSOLE_CSS, CONSOLE_JS } from './assets.js';
import { scrape } from './metrics.js';
import { esc, inPage, jobPath, type Shown } from './pages/format.js';
import { jobPage, jobSections } from './pages/job.js';
import { page } from './pages/layout.js';
import { loginPage } from './pages/login.js';
import { overviewPage, overviewSections, updatedLine } from './pages/overview.js';
import { recipientsSection } from './pages/recipients.js';
import { stopNotice, stopPage } from './pages/stop.js';

/** Recipients a page shows. */
export const PAGE_SIZE = 50;

export interface RoutesOptions {
  watch: StoreWatch;
  access: Access;
  health: HealthSource;
  /** Where the store is, for people (a folder, or a database's URL without its password). */
  location: string;
  /** This machine's name: a run on it can be stopped from here. */
  thisHost: string;
  /** Sends the stop (one SIGTERM) to a process of this host; false when no process of ours has that pid. */
  signal: (pid: number) => boolean;
  /** The zone the pages show times in. */
  zone: string;
  /** The locale of the pages' figures and times (none: as in English, dates year first); the CSV never changes. */
  locale: string | undefined;
  clock: () => number;
  /** A failure that is not a person's to fix (a bug), for the log. */
  onError: (err: unknown) => void;
}

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  // Every answer but the assets holds people's data: never kept by a browser or a proxy.
  'cache-control': 'no-store',
};

/** Paths anyone may ask: the health check (for a probe), the assets, the sign-in. */
function open(path: string): boolean {
  return path === '/healthz' || path.startsWith('/assets/') || path === '/login' || path === '/favicon.ico';
}

export function consoleRoutes(o: RoutesOptions): Hono {
  const app = new Hono();
  const shown = (): Shown => ({ zone: o.zone, locale: o.locale, now: o.clock() });
  const signOutOf = (c: Context) => (o.access.guarded && o.access.caller(c) === 'session' ? { csrf: o.access.csrfToken(c) } : undefined);

  app.onError((err, c) => {
    if (isForPeople(err)) return c.html(errorPage('The store cannot be read now', err.message), 503);
    o.onError(err);
    return c.html(errorPage('Something went wrong', 'This is a bug: the console logged it; please report it with that log.'), 500);
  });

  app.use('*', async (c, next) => {
    await next();
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) if (!c.res.headers.has(k)) c.res.headers.set(k, v);
  });

  // On loopback without a token, a page reached through another host name (a DNS name rebound to 127.0.0.1) is not served.
  app.use('*', async (c, next) => {
    if (!o.access.guarded && !hostIsLoopback(c.req.header('host'))) {
      return c.text(`This console answers only on this machine's loopback; open it at http://127.0.0.1:${new URL(c.req.url).port || '80'}/\n`, 403);
    }
    return next();
  });

  app.use('*', async (c, next) => {
    if (open(c.req.path) || o.access.caller(c) !== undefined) return next();
    const wantsPage = c.req.method === 'GET' && !c.req.path.startsWith('/api/') && !c.req.path.endsWith('.csv') && c.req.path !== '/metrics';
    if (wantsPage) return c.redirect(`/login?next=${encodeURIComponent(c.req.path + new URL(c.req.url).search)}`, 303);
    c.header('www-authenticate', 'Bearer realm="outreach console"');
    return c.text('This console asks for its token (OUTREACH_CONSOLE_TOKEN): send it as Authorization: Bearer, as the password of basic auth, or sign in at /login.\n', 401);
  });

  // A form post comes from the console's own pages: its origin, and the page's CSRF token. A bearer token is never sent by a browser on its own.
  const checkOrigin = originCheck();
  app.use('*', async (c, next) => {
    if (c.req.method !== 'POST' || o.access.caller(c) === 'bearer') return next();
    let refused = false;
    await checkOrigin(c, async () => undefined).catch(() => (refused = true));
    const form = refused ? {} : await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const given = (form as Record<string, unknown>).csrf;
    if (refused || !o.access.csrfMatches(c, typeof given === 'string' ? given : undefined)) {
      return c.html(errorPage('Refused', 'This form did not come from a page of this console (its origin or its CSRF token is not the console\'s). Open the page again and repeat.'), 403);
    }
    return next();
  });

  app.get('/assets/console.css', (c) => c.body(CONSOLE_CSS, 200, { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'no-cache' }));
  app.get('/assets/console.js', (c) => c.body(CONSOLE_JS, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' }));

  app.get('/favicon.ico', (c) => c.body(null, 204));

  app.get('/healthz', async (c) => {
    const health = await o.health.check();
    const line = health.storeUp ? 'ok: the store is reachable' : `unhealthy: ${health.reason.slice(health.reason.indexOf('the store is unreachable'))}`;
    return c.text(`${line}\n`, healthStatus(health));
  });

  app.get('/metrics', async (c) => {
    const health = await o.health.check();
    const jobs = health.storeUp ? await o.watch.jobs().catch(() => undefined) : undefined;
    const { contentType, text } = await scrape(jobs, health.storeUp && jobs !== undefined);
    return c.body(text, 200, { 'content-type': contentType });
  });

  app.get('/login', (c) => {
    if (!o.access.guarded) return c.redirect('/', 303);
    return c.html(loginPage({ next: safeNext(c.req.query('next')), csrf: o.access.csrfToken(c) }));
  });

  app.post('/login', async (c) => {
    if (!o.access.guarded) return c.redirect('/', 303);
    const form = await c.req.parseBody();
    const next = safeNext(typeof form.next === 'string' ? form.next : undefined);
    if (typeof form.token !== 'string' || !o.access.isToken(form.token)) return c.html(loginPage({ next, csrf: o.access.csrfToken(c), wrong: true }), 401);
    o.access.signIn(c);
    return c.redirect(next, 303);
  });

  app.post('/logout', (c) => {
    o.access.signOut(c);
    return c.redirect(o.access.guarded ? '/login' : '/', 303);
  });

  app.get('/', async (c) => {
    const jobs = await o.watch.jobs();
    const signOut = signOutOf(c);
    const s = shown();
    return c.html(inPage(s, () => overviewPage(jobs, s, { location: o.location, ...(signOut && { signOut }) })));
  });

  app.get('/api/overview', async (c) => {
    const jobs = await o.watch.jobs();
    const s = shown();
    return c.json(inPage(s, () => ({ updated: updatedLine(s), sections: overviewSections(jobs, s) })));
  });

  app.get('/api/jobs/:key', async (c) => {
    const f = await o.watch.job(c.req.param('key'));
    if (f === undefined) return c.json({ error: `no job "${c.req.param('key')}" in this store` }, 404);
    const s = shown();
    return c.json(inPage(s, () => ({ updated: updatedLine(s), sections: jobSections(f, s, o.thisHost) })));
  });

  app.get('/jobs/:key', async (c) => {
    const key = c.req.param('key');
    const f = await o.watch.job(key);
    if (f === undefined) return c.html(notFound(key), 404);
    const filter = filterOf(c);
    const rows = await o.watch.rows(key);
    const pageNo = Math.min(1_000_000, Math.max(1, Number.parseInt(c.req.query('page') ?? '1', 10) || 1));
    const list = recipientPage(rows?.rows() ?? [], filter, pageNo, PAGE_SIZE);
    const notice = noticeOf(c, f.key, o.thisHost);
    const signOut = signOutOf(c);
    const s = shown();
    return c.html(inPage(s, () => jobPage(f, s, { host: o.thisHost, recipients: recipientsSection(f, filter, list, s), ...(notice !== undefined && { notice }), ...(signOut && { signOut }) })));
  });

  app.get('/jobs/:key/contacts.csv', async (c) => {
    const key = c.req.param('key');
    const rows = await o.watch.rows(key);
    if (rows === undefined) return c.text(`no job "${key}" in this store\n`, 404);
    const filter = filterOf(c);
    const excel = c.req.query('excel') === '1';
    const name = `${rows.job.name}-contacts${filter.status !== undefined ? `-${filter.status}` : ''}${excel ? '.xlsx' : ''}.csv`;
    const chunks = recipientsCsv(rows.rows(), filter, rows.layout, excel)[Symbol.iterator]();
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.next();
        if (next.done === true) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
    });
    return c.body(body, 200, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${name}"` });
  });

  app.get('/jobs/:key/stop', async (c) => {
    const key = c.req.param('key');
    const f = await o.watch.job(key);
    if (f === undefined) return c.html(notFound(key), 404);
    const signOut = signOutOf(c);
    const s = shown();
    return c.html(inPage(s, () => stopPage(f, s, o.thisHost, o.access.csrfToken(c), signOut)));
  });

  app.post('/jobs/:key/stop', async (c) => {
    const key = c.req.param('key');
    const outcome = await o.watch.stop(key, { host: o.thisHost, signal: o.signal });
    if (outcome === undefined) return c.html(notFound(key), 404);
    const q = new URLSearchParams({ stopped: outcome.kind, ...(outcome.kind !== 'not_running' && { pid: String(outcome.runner.pid), on: outcome.runner.host }) });
    return c.redirect(jobPath(key, `?${q.toString()}`), 303);
  });

  app.notFound((c) => c.html(errorPage('Not found', 'The console has no such page: start from the list of jobs.'), 404));
  return app;
}

/** The recipients filter of a request (`?status=failed&phone=5511`); a status report.csv does not have is none. */
function filterOf(c: Context): RecipientFilter {
  const status = c.req.query('status');
  const phone = c.req.query('phone');
  return { ...(isRecipientStatus(status) && { status }), ...(phone !== undefined && phone !== '' && { phone: phone.slice(0, 32) }) };
}

/** What the last stop did, when the page was reached from it. */
function noticeOf(c: Context, job: string, host: string): string | undefined {
  const kind = c.req.query('stopped');
  if (kind === 'not_running') return stopNotice(job, { kind }, host);
  if (kind !== 'signalled' && kind !== 'other_host' && kind !== 'gone') return undefined;
  const runner: JobRunner = { pid: Number(c.req.query('pid') ?? 0), host: (c.req.query('on') ?? '').slice(0, 255), since: '', command: '' };
  return stopNotice(job, { kind, runner }, host);
}

/** Where to go after signing in: a path of this console only. */
function safeNext(next: string | undefined): string {
  return next !== undefined && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}

function isForPeople(err: unknown): err is Error {
  return err instanceof Error && (err as { userError?: unknown }).userError === true;
}

function errorPage(title: string, sentence: string): string {
  return page({ title, header: `<h1>${esc(title)}</h1>`, body: `<section><p>${esc(sentence)}</p></section>` });
}

function notFound(key: string): string {
  return errorPage('No such job', `This store holds no job "${key}"; the list of jobs names each by its key.`);
}

