/**
 * A store URL as the user gives it (`--store`, `--store-file`, `OUTREACH_STORE`, `OUTREACH_STORE_FILE`):
 * `postgres://` or `postgresql://`, read as node-postgres reads it (a Unix-socket `host`), with
 * `sslmode` read as libpq reads it (`require`: encrypted, not verified; `verify-ca`, `verify-full`:
 * verified), plus one parameter of ours, `schema` (default `outreach`), taken out before the URL
 * reaches node-postgres. A URL shown to a person has its password masked, whatever it holds and
 * whether it can be read or not; `place` names the store as a sentence does (host, port, database).
 */
import { parse } from 'pg-connection-string';

export const DEFAULT_SCHEMA = 'outreach';

export interface PgStoreUrl {
  /** What node-postgres is given (our own parameters taken out). */
  connectionString: string;
  /** The schema that holds every table of the store. */
  schema: string;
  /** The URL with its password masked: the only form shown to people. */
  display: string;
  /** "database outreach on db.example.com:5432" (a socket folder in place of a host). */
  place: string;
  /** The database role the URL names, for the grants a refusal shows; undefined when the URL names none. */
  role?: string;
}

/** A store URL that cannot be used as written: one sentence naming what is wrong (exit 2). */
export class StoreUrlError extends Error {
  readonly userError = true;
  constructor(message: string) {
    super(message);
    this.name = 'StoreUrlError';
  }
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
/** The sslmode values read as libpq reads them. */
const SSL_MODES = ['disable', 'prefer', 'require', 'verify-ca', 'verify-full'];
/** Parameters that never reach node-postgres: ours, and node-postgres's switch to libpq's meanings (always on here). */
const OWN_PARAMETERS = ['schema', 'uselibpqcompat'];
/** How node-postgres reads every store URL: `sslmode` with libpq's meanings, and no warning printed about it. */
export const LIBPQ_COMPAT = { useLibpqCompat: true } as const;

/** Whether the value names a database store (any scheme `postgres` or `postgresql`). */
export function isPgUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}

/**
 * Where the user name and password end: the last `@` of the value, so that a password holding any
 * of `@ : / ? #` unencoded is cut whole (a URL parser would end it at the first `/ ? #`). An `@` in a
 * parameter after the host makes the cut longer than it is, which only hides more.
 */
function userinfoOf(value: string): { start: number; end: number } | undefined {
  const start = /^[a-z][a-z0-9+.-]*:\/\//i.exec(value)?.[0].length ?? 0;
  const end = value.lastIndexOf('@');
  return end >= start ? { start, end } : undefined;
}

/**
 * The value with its password masked as `***`: the user name kept, everything between its `:` and
 * the last `@` hidden (and any `password=` parameter). Safe on any string, a URL or not: a value
 * without a scheme keeps nothing before its last `@`.
 */
export function maskUrl(value: string): string {
  const info = userinfoOf(value);
  let masked = value;
  if (info !== undefined) {
    const userinfo = value.slice(info.start, info.end);
    const colon = userinfo.indexOf(':');
    const shown = info.start === 0 ? '***' : colon === -1 ? userinfo : `${userinfo.slice(0, colon)}:***`;
    masked = `${value.slice(0, info.start)}${shown}${value.slice(info.end)}`;
  }
  return masked.replace(/([?&]password=)[^&#]*/gi, '$1***');
}

const ENCODE_HINT = 'percent-encode such characters in the URL (@ as %40, : as %3A, / as %2F, ? as %3F, # as %23, % as %25, a space as %20), or leave the password out of the URL and give it in PGPASSWORD or a password file (PGPASSFILE)';

export function parsePgUrl(value: string): PgStoreUrl {
  const display = maskUrl(value);
  if (!isPgUrl(value)) throw new StoreUrlError(`the store URL ${display} is not a PostgreSQL URL; write it as postgres://user@host:5432/database`);
  const info = userinfoOf(value);
  if (info !== undefined && /[/?#]/.test(value.slice(info.start, info.end))) {
    // A URL parser would end the user name and password at that character and read the rest of the password as the host.
    throw new StoreUrlError(`the store URL ${display} cannot be read as written: its user name or password (or a parameter after the host) holds / ? # or @ unencoded; ${ENCODE_HINT}`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // An empty host (`postgres://user@/db?host=/run/postgresql`: a Unix socket) is read as node-postgres reads it.
    try {
      url = new URL(value.replace('@/', '@localhost/'));
    } catch {
      throw new StoreUrlError(`the store URL ${display} is not a URL; write it as postgres://user@host:5432/database (with a password holding special characters, ${ENCODE_HINT})`);
    }
  }
  const schema = url.searchParams.get('schema') ?? DEFAULT_SCHEMA;
  if (!SCHEMA_NAME.test(schema)) {
    throw new StoreUrlError(`the store URL ${display} names the schema "${schema}"; use lower-case letters, digits and _ (for example schema=outreach)`);
  }
  checkSsl(url.searchParams, display);
  const own = OWN_PARAMETERS.filter((p) => url.searchParams.has(p));
  for (const p of own) url.searchParams.delete(p);
  const connectionString = own.length === 0 ? value : rebuild(value, url);
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(connectionString, LIBPQ_COMPAT);
  } catch (err) {
    const why = err instanceof URIError ? `a % in it does not start a percent-encoded character; ${ENCODE_HINT}` : `${err instanceof Error ? err.message : String(err)}; write it as postgres://user@host:5432/database`;
    throw new StoreUrlError(`the store URL ${display} cannot be read (${why})`);
  }
  const host = parsed.host ?? 'localhost';
  const where = host.startsWith('/') ? `socket ${host}` : `${host}:${parsed.port || '5432'}`;
  const role = parsed.user || undefined;
  return { connectionString, schema, display, place: `database ${parsed.database ?? parsed.user ?? 'postgres'} on ${where}`, ...(role !== undefined && { role }) };
}

/** `sslmode` as libpq knows it; `verify-ca` checks the certificate against a CA the URL names. */
function checkSsl(params: URLSearchParams, display: string): void {
  const mode = params.get('sslmode');
  const problem = mode === null ? undefined : sslModeProblem(mode, params.get('sslrootcert') !== null);
  if (problem !== undefined) throw new StoreUrlError(`the store URL ${display} says sslmode=${mode}: ${problem}`);
}

/** What is wrong with an sslmode (the URL's or PGSSLMODE), as the end of a sentence; undefined when it can be used. */
export function sslModeProblem(mode: string, hasRootCert: boolean): string | undefined {
  if (!SSL_MODES.includes(mode)) return 'use disable, prefer, require (encrypted, the certificate not checked), verify-ca or verify-full (encrypted and checked)';
  if (mode === 'verify-ca' && !hasRootCert) return "verify-ca checks the server's certificate against a CA you name: add sslrootcert=/path/to/ca.pem (the CA that signed it), or use sslmode=verify-full";
  return undefined;
}

/** The URL without our own parameters (the query rebuilt from what is left). */
function rebuild(value: string, url: URL): string {
  const q = value.indexOf('?');
  const base = q === -1 ? value : value.slice(0, q);
  return url.searchParams.size === 0 ? base : `${base}?${url.searchParams.toString()}`;
}
