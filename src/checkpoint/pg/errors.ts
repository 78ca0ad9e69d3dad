/**
 * What the database said, as the port's errors: a write that did not become durable is the port's
 * StoreWriteError (the run stops, exit 3); a store that cannot be reached or refuses us is a
 * StoreUnavailableError (nothing sent, exit 3). Each names the store (host, port, database), never
 * its password.
 */
import { StoreUnavailableError, StoreWriteError } from '../errors.js';

/** Why the database failed, in a few words, with the SQLSTATE or system code when there is one. */
export function describeDbError(err: unknown): string {
  const e = err as { code?: string; message?: string } | undefined;
  const code = e?.code;
  switch (code) {
    case 'ECONNREFUSED':
      return 'the connection was refused (is the server running, on that host and port?)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name is not known';
    case 'ETIMEDOUT':
      return 'the connection timed out';
    case 'ECONNRESET':
    case '57P01':
    case '57P02':
    case '57P03':
      return 'the server closed the connection (it may be restarting)';
    case '28P01':
    case '28000':
      return 'the user name or password was refused';
    case '3D000':
      return 'the database does not exist';
    case '42501':
      return 'the database role may not do this (permission denied)';
    default: {
      const message = (e?.message ?? String(err)).split('\n')[0] ?? '';
      return code ? `${message} (${code})` : message;
    }
  }
}

export function unavailable(err: unknown, place: string): StoreUnavailableError {
  if (err instanceof StoreUnavailableError) return err;
  return new StoreUnavailableError(`the store (${place}) cannot be used: ${describeDbError(err)}`, 'check the store URL and that the server is up, then run again', { cause: err });
}

export function writeFailed(err: unknown, place: string, what: string): StoreWriteError {
  if (err instanceof StoreWriteError) return err;
  return new StoreWriteError(`could not write ${what} to the store (${place}): ${describeDbError(err)}`, 'when the database is back, run `outreach resume` (and `outreach reconcile` for contacts in doubt)', { cause: err });
}
