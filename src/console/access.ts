/**
 * Who may use the console. On loopback without a token: this machine's people (and a page claiming
 * another host name is refused, so a rebound DNS name cannot reach it). With OUTREACH_CONSOLE_TOKEN:
 * every request but the health check carries the token as `Authorization: Bearer …`, as basic auth's
 * password, or as the session cookie the sign-in page sets (an HMAC of its expiry under a key of this
 * process: the token itself is never in a cookie, a page, a log or the output). A form post (stop, sign
 * in, sign out) must carry the page's CSRF token and come from the console's own origin; a request
 * signed with a bearer token (never sent by a browser on its own) needs neither.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';

export const SESSION_COOKIE = 'outreach_console_session';
export const CSRF_COOKIE = 'outreach_console_csrf';
/** How long a sign-in lasts. */
export const SESSION_MS = 12 * 3_600_000;

/** How a request is let in: by bearer token, basic auth, the session cookie, or openly (loopback without a token). */
export type Caller = 'bearer' | 'basic' | 'session' | 'open';

export interface Access {
  /** Whether the console asks for a token. */
  readonly guarded: boolean;
  /** How the request is let in; undefined when it is not. */
  caller(c: Context): Caller | undefined;
  /** Whether `given` is the console's token. */
  isToken(given: string): boolean;
  /** Sets the session cookie of a sign-in, valid for SESSION_MS. */
  signIn(c: Context): void;
  signOut(c: Context): void;
  /** The CSRF token of the page being answered (setting its cookie when the browser has none). */
  csrfToken(c: Context): string;
  /** Whether a form's CSRF token is the one of the request's cookie. */
  csrfMatches(c: Context, given: string | undefined): boolean;
}

export function access(options: { token?: string; clock?: () => number }): Access {
  const clock = options.clock ?? Date.now;
  const key = randomBytes(32);
  const token = options.token;
  const mac = (text: string) => createHmac('sha256', key).update(text).digest('base64url');
  const same = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));
  const secure = (c: Context) => new URL(c.req.url).protocol === 'https:' || c.req.header('x-forwarded-proto') === 'https';

  const isToken = (given: string) => token !== undefined && same(given, token);

  const session = (c: Context): boolean => {
    const value = getCookie(c, SESSION_COOKIE);
    const [expires, sig] = value?.split('.') ?? [];
    if (expires === undefined || sig === undefined || !/^\d+$/.test(expires) || Number(expires) <= clock()) return false;
    return same(sig, mac(`session:${expires}`));
  };

  const fromHeader = (c: Context): Caller | undefined => {
    const header = c.req.header('authorization') ?? '';
    const [scheme, value = ''] = header.split(/\s+/, 2);
    if (scheme?.toLowerCase() === 'bearer' && isToken(value)) return 'bearer';
    if (scheme?.toLowerCase() === 'basic') {
      const decoded = Buffer.from(value, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon !== -1 && isToken(decoded.slice(colon + 1))) return 'basic';
    }
    return undefined;
  };

  return {
    guarded: token !== undefined,
    caller(c) {
      if (token === undefined) return 'open';
      return fromHeader(c) ?? (session(c) ? 'session' : undefined);
    },
    isToken,
    signIn(c) {
      const expires = clock() + SESSION_MS;
      setCookie(c, SESSION_COOKIE, `${expires}.${mac(`session:${expires}`)}`, { httpOnly: true, sameSite: 'Strict', path: '/', secure: secure(c), maxAge: SESSION_MS / 1000 });
    },
    signOut(c) {
      setCookie(c, SESSION_COOKIE, '', { httpOnly: true, sameSite: 'Strict', path: '/', secure: secure(c), maxAge: 0 });
    },
    csrfToken(c) {
      let value = getCookie(c, CSRF_COOKIE);
      if (value === undefined || !/^[A-Za-z0-9_-]{16,64}$/.test(value)) {
        value = randomBytes(18).toString('base64url');
        setCookie(c, CSRF_COOKIE, value, { httpOnly: true, sameSite: 'Strict', path: '/', secure: secure(c) });
      }
      return mac(`csrf:${value}`);
    },
    csrfMatches(c, given) {
      const value = getCookie(c, CSRF_COOKIE);
      return value !== undefined && given !== undefined && given !== '' && same(given, mac(`csrf:${value}`));
    },
  };
}

/** The two texts' SHA-256: equal lengths, so their comparison takes the same time whatever they hold. */
function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Whether an address to listen on is this machine's loopback (127.0.0.0/8, ::1, localhost). */
export function isLoopback(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h) || h === '::ffff:127.0.0.1';
}

/** Whether a request's Host header names this machine's loopback (a page reached through another name is not the console's). */
export function hostIsLoopback(hostHeader: string | undefined): boolean {
  if (hostHeader === undefined) return false;
  const name = hostHeader.replace(/:\d+$/, '');
  return isLoopback(name) || name.toLowerCase().endsWith('.localhost');
}
