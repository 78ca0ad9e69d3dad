/**
 * What the database said, as the port's errors: a write that did not become durable is the port's
 * StoreWriteError (the run stops, exit 3); a store that cannot be reached or refuses us is a
 * StoreUnavailableError (nothing sent, exit 3). Each names the store (host, port, database), never
 * its password. A refusal that no waiting mends (a permission, a certificate, a password) says what
 * to change instead of "when the database is back".
 */
import { StoreUnavailableError, StoreWriteError } from '../errors.js';
import { OutageError } from './outage.js';
import type { PgStoreUrl } from './url.js';

/** The store as its sentences name it: where it is, and the schema and role a grant names. */
export type StoreRef = Pick<PgStoreUrl, 'place' | 'schema' | 'role'>;

/** Why the database failed, in a few words, and what to do when it is not an outage. */
interface Cause {
  what: string;
  /** Undefined: an outage or a fault of the moment (the caller's own advice: try again, resume). */
  fix?: string;
}

const UNTRUSTED_CERT = new Set(['DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_UNTRUSTED']);

function causeOf(err: unknown): Cause {
  if (err instanceof OutageError) {
    const last = causeOf(err.last);
    return { ...last, what: `${last.what}, and it was still unreachable after ${Math.round(err.waitedMs / 1000)} s` };
  }
  const e = err as { code?: string; message?: string } | undefined;
  const code = e?.code;
  const message = (e?.message ?? String(err)).split('\n')[0] ?? '';
  if (code !== undefined && UNTRUSTED_CERT.has(code)) {
    return { what: "the server's certificate is not signed by a CA this machine trusts (it may be self-signed)", fix: 'name the CA that signed it with sslrootcert=/path/to/ca.pem in the URL, or use sslmode=require to encrypt without checking the certificate' };
  }
  switch (code) {
    case 'ECONNREFUSED':
      return { what: 'the connection was refused (is the server running, on that host and port?)' };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return { what: 'the host name is not known' };
    case 'ETIMEDOUT':
      return { what: 'the connection timed out' };
    case 'ECONNRESET':
    case '57P01':
    case '57P02':
    case '57P03':
      return { what: 'the server closed the connection (it may be restarting)' };
    case '28P01':
      return { what: 'the user name or password was refused', fix: 'check the user name and the password (in the URL, PGPASSWORD or the password file)' };
    case '28000':
      if (/no encryption/.test(message)) return { what: 'the server takes this role only over an encrypted connection', fix: 'add sslmode=verify-full (or sslmode=require) to the URL' };
      return { what: 'the user name or password was refused', fix: 'check the user name and the password (in the URL, PGPASSWORD or the password file)' };
    case 'NO_PASSWORD':
      return { what: 'the server asks for a password and none was given', fix: 'give it in PGPASSWORD, in a password file (PGPASSFILE, else ~/.pgpass, mode 0600), or in the URL (percent-encoded)' };
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return { what: "the server's certificate is for another host name", fix: 'connect by a name the certificate holds, or use sslmode=verify-ca with sslrootcert (the name then not checked)' };
    case 'CERT_HAS_EXPIRED':
    case 'CERT_NOT_YET_VALID':
      return { what: "the server's certificate is out of its dates", fix: "renew the server's certificate" };
    case '3D000':
      return { what: 'the database does not exist', fix: 'create it, or name one that exists in the URL' };
    case '42501':
      return { what: `the database role may not do this (${message})` };
    default:
      if (/does not support SSL/i.test(message)) return { what: 'the server does not accept encrypted connections', fix: 'turn ssl on in the server, or use sslmode=disable on a network you trust' };
      return { what: code ? `${message} (${code})` : message };
  }
}

/** Why the database failed, in a few words, with the SQLSTATE or system code when there is one. */
export function describeDbError(err: unknown): string {
  return causeOf(err).what;
}

/** A role name as a GRANT writes it. */
function roleName(role: string | undefined): string {
  if (role === undefined) return "<the store URL's role>";
  return /^[a-z_][a-z0-9_$]*$/.test(role) ? role : `"${role.replace(/"/g, '""')}"`;
}

/** The grants the docs show for the runners' role. */
function grants(url: StoreRef): string {
  const s = url.schema; // lower-case letters, digits and _ (parsePgUrl holds it): no quotes needed
  const r = roleName(url.role);
  return `GRANT USAGE ON SCHEMA ${s} TO ${r}; GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${s} TO ${r}; GRANT USAGE ON ALL SEQUENCES IN SCHEMA ${s} TO ${r};`;
}

/**
 * A permission refusal (SQLSTATE 42501) as what the role may not do and the grant that lets it:
 * the tables' privileges, the schema's USAGE, the sequences'; or, when it had to create or change
 * the tables, the migration made by their owner first. Undefined for any other error.
 */
function permissionRefusal(err: unknown, url: StoreRef): { problem: string; fix: string } | undefined {
  const e = err as { code?: unknown; message?: unknown } | undefined;
  if (e?.code !== '42501') return undefined;
  const message = typeof e.message === 'string' ? e.message : '';
  const role = url.role === undefined ? 'the database role' : `the database role ${url.role}`;
  const object = /permission denied for (table|schema|sequence|database) "?([^"\s]+)"?/.exec(message);
  const needs =
    object?.[1] === 'table'
      ? `read and write table ${url.schema}.${object[2]} (it needs SELECT, INSERT, UPDATE and DELETE on the store's tables)`
      : object?.[1] === 'schema'
        ? `use schema ${object[2]} (it needs USAGE on it)`
        : object?.[1] === 'sequence'
          ? `use sequence ${url.schema}.${object[2]} (it needs USAGE on the store's sequences)`
          : undefined;
  if (needs !== undefined) {
    return { problem: `${role} may not ${needs}: permission denied (42501)`, fix: `as the owner of the store's tables, run ${grants(url)}` };
  }
  // Creating or upgrading the tables (CREATE on the database or schema, the owner of a table): the owner's work.
  return {
    problem: `${role} may not create or change the store's tables (${message}, 42501)`,
    fix: `create or upgrade them once with a role that may (\`outreach store migrate\` as their owner), give this role what a runner needs (${grants(url)})`,
  };
}

/** The fixes below say what to do about the store alone; the port's errors add the step after it ("then run again"). */
export function unavailable(err: unknown, url: StoreRef): StoreUnavailableError {
  if (err instanceof StoreUnavailableError) return err;
  const refusal = permissionRefusal(err, url);
  if (refusal !== undefined) return new StoreUnavailableError(`the store (${url.place}) refused us: ${refusal.problem}`, refusal.fix, { cause: err });
  const cause = causeOf(err);
  return new StoreUnavailableError(`the store (${url.place}) cannot be used: ${cause.what}`, cause.fix ?? 'check the store URL and that the server is up', { cause: err });
}

/** A command that prints the write error as it is says the step after the fix; a run says its own (`app/run/store-stopped.ts`). */
const AGAIN = 'run the command again (`outreach resume` for a run)';

export function writeFailed(err: unknown, url: StoreRef, what: string): StoreWriteError {
  if (err instanceof StoreWriteError) return err;
  const refusal = permissionRefusal(err, url);
  if (refusal !== undefined) return new StoreWriteError(`could not write ${what} to the store (${url.place}): ${refusal.problem}`, refusal.fix, { cause: err, then: AGAIN });
  const cause = causeOf(err);
  return new StoreWriteError(`could not write ${what} to the store (${url.place}): ${cause.what}`, cause.fix ?? 'check that the database is up and that this host reaches it', { cause: err, then: AGAIN });
}
