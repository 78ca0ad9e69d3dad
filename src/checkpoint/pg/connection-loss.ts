/**
 * Whether a database error is the connection's, not the statement's: the server or a pooler between
 * went away (a terminated session, 57P01; a restart; "Connection terminated unexpectedly" from
 * node-postgres when PgBouncer restarts), or could not be reached for a moment (refused, reset, timed
 * out, too many connections). Such a statement may or may not have been applied; another connection
 * may run it again when the statement is safe to run twice. An error of the statement itself (a
 * refused password, a permission, bad SQL) is not one: running it again changes nothing.
 */

/** System codes of a socket that could not connect or was cut. */
const SOCKET_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'EAI_AGAIN']);

/** SQLSTATEs of a server going away or not taking connections for the moment (class 08 is tested apart). */
const SERVER_CODES = new Set([
  '57P01', // admin_shutdown: pg_terminate_backend, a fast shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up, shutting down
  '53300', // too_many_connections
]);

/** node-postgres's own words for a connection lost (no code). */
const LOST = /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect/i;

export function isConnectionLoss(err: unknown): boolean {
  if (err instanceof AggregateError) return err.errors.some(isConnectionLoss);
  const e = err as { code?: unknown; message?: unknown } | null | undefined;
  const code = typeof e?.code === 'string' ? e.code : undefined;
  if (code !== undefined && (SOCKET_CODES.has(code) || SERVER_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  return typeof e?.message === 'string' && LOST.test(e.message);
}
