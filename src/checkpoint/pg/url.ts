/**
 * A store URL as the user gives it (`--store`, `OUTREACH_STORE`): `postgres://` or `postgresql://`,
 * read as node-postgres reads it (`sslmode`, a Unix-socket `host`), plus one parameter of ours,
 * `schema` (default `outreach`), taken out before the URL reaches node-postgres. A URL shown to a
 * person has its password masked; `place` names the store as a sentence does (host, port, database).
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

/** Whether the value names a database store (any scheme `postgres` or `postgresql`). */
export function isPgUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}

/** The URL with its password (and any `password=` parameter) masked. Safe on any string. */
export function maskUrl(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@?#]*:)[^@/?#]*@/i, '$1***@').replace(/([?&]password=)[^&#]*/gi, '$1***');
}

export function parsePgUrl(value: string): PgStoreUrl {
  const display = maskUrl(value);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // An empty host (`postgres://user@/db?host=/run/postgresql`: a Unix socket) is read as node-postgres reads it.
    try {
      url = new URL(value.replace('@/', '@localhost/'));
    } catch {
      throw new StoreUrlError(`the store URL ${display} is not a URL; write it as postgres://user:password@host:5432/database`);
    }
  }
  const schema = url.searchParams.get('schema') ?? DEFAULT_SCHEMA;
  if (!SCHEMA_NAME.test(schema)) {
    throw new StoreUrlError(`the store URL ${display} names the schema "${schema}"; use lower-case letters, digits and _ (for example schema=outreach)`);
  }
  url.searchParams.delete('schema');
  const connectionString = url.searchParams.size === 0 ? value.replace(/[?&]schema=[^&#]*/, '').replace(/\?$/, '') : rebuild(value, url);
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(connectionString);
  } catch (err) {
    throw new StoreUrlError(`the store URL ${display} cannot be read (${err instanceof Error ? err.message : String(err)}); write it as postgres://user:password@host:5432/database`);
  }
  const host = parsed.host ?? 'localhost';
  const where = host.startsWith('/') ? `socket ${host}` : `${host}:${parsed.port ?? '5432'}`;
  return { connectionString, schema, display, place: `database ${parsed.database ?? parsed.user ?? 'postgres'} on ${where}` };
}

/** The URL without our own parameters (the query rebuilt from what is left). */
function rebuild(value: string, url: URL): string {
  const q = value.indexOf('?');
  const base = q === -1 ? value : value.slice(0, q);
  return `${base}?${url.searchParams.toString()}`;
}
