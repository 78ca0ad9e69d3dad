/**
 * How long a claim lives. A claim is renewed every `SHARE_RENEW_MS`; one not renewed for
 * `RATE_SHARE_EXPIRY_MS` lapses (its process died or stood still); a process that leaves makes its row
 * lapse `RATE_SHARE_LEAVE_MS` later, once its last sends are out of any one-second window, and so does
 * the row of a process of this host found gone (killed) by another's claim. A sender lowers its own
 * pace first and its claim only a settle window later, and stops using a claim a settle window before
 * it lapses, so no second holds sends at an old share and another sender's at its new one.
 */

/** A claim not renewed for this long lapses (store time: the callers' clock on one folder, the database's clock). */
export const RATE_SHARE_EXPIRY_MS = 10_000;
/** A sender that leaves keeps its claim this long (more than the pacing window of one second), then it lapses. */
export const RATE_SHARE_LEAVE_MS = 1_200;
/** How often a sender renews its claim and re-reads how many share the number. */
export const SHARE_RENEW_MS = 2_000;
/**
 * A lowered pace holds this long before the claim is lowered in the store (and a claim lapses this long
 * before its process stops using it): more than the pacing window (one second and 20 ms of jitter, `run/limiter.ts`),
 * so no second holds sends at the old pace and another sender's at its new share.
 */
export const SHARE_SETTLE_MS = 1_100;

/**
 * Until when (clock ms) a claim renewed by a call that started at `renewedAt` may be used: the store lets
 * it lapse `expiryMs` after it received the call (not before `renewedAt`), and others may take it then;
 * its sender stops one settle window earlier.
 */
export function shareUsableUntil(renewedAt: number, expiryMs: number = RATE_SHARE_EXPIRY_MS): number {
  return renewedAt + expiryMs - SHARE_SETTLE_MS;
}

/** When a claim that lapses at `expires` lapses once its sender left (or was found gone) at `now`. */
export function leftAt(expires: number, now: number): number {
  return Math.min(expires, now + RATE_SHARE_LEAVE_MS);
}

/**
 * Whether a claim's process is known to be gone: one of this host (`here`) that `alive` says no longer
 * runs (killed, crashed). Its claim lapses as a leaving one's does, not a whole expiry later: a run
 * resumed after a kill -9 would otherwise send nothing for up to ten seconds.
 */
export function processGone(row: { pid?: number | null; host?: string | null }, here: string, alive: (pid: number) => boolean): boolean {
  return row.pid !== undefined && row.pid !== null && row.host === here && !alive(row.pid);
}
