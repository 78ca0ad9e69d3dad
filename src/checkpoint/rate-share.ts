/**
 * The registry of senders per number (the port's own types): every process sending from a number of
 * the business holds a row there, with the share of the number's rate it claims, renewed every few
 * seconds. The sum of the live claims of a number never exceeds its rate: a claim may always be kept
 * or lowered, and is raised only into what the other live claims leave. A row not renewed for
 * `RATE_SHARE_EXPIRY_MS` lapses (its process died or stood still); a process that leaves makes its row
 * lapse `RATE_SHARE_LEAVE_MS` later, once its last sends are out of any one-second window, and so does
 * the row of a process of this host found gone (killed) by another's claim.
 */

/** A claim not renewed for this long lapses (store time: the callers' clock on one folder, the database's clock). */
export const RATE_SHARE_EXPIRY_MS = 10_000;
/** A sender that leaves keeps its claim this long (more than the pacing window of one second), then it lapses. */
export const RATE_SHARE_LEAVE_MS = 1_200;

/** A process asking for its share of one number's rate. */
export interface RateClaim {
  /** The number (the platform's channel id). */
  channel: number;
  /** This process's run (an id of its own, the same at every renewal). */
  sender: string;
  /** The permits per second it wants to hold from now on (0: none yet). */
  want: number;
  /** The number's rate as this process's job gives it (rate.per_second). */
  perSecond: number;
  /** Epoch ms now (the file backend's clock; the database uses its own). */
  now: number;
  /** Who sends, for people reading the registry. */
  host?: string;
  pid?: number;
}

/** What the registry says after a claim. */
export interface RateShare {
  /** The permits per second this sender holds now (at most `want`). */
  granted: number;
  /** Live senders of the number, this one included. */
  senders: number;
  /** The lowest rate the live senders' jobs give the number (theirs and this one's). */
  perSecond: number;
}

/**
 * The share a claim is granted (pure): what it held (`held`, 0 when its row lapsed or is new) may be kept
 * or lowered at once; above it, only what `perSecond` leaves after the `others`' live claims.
 */
export function grantedShare(held: number, want: number, perSecond: number, others: number): number {
  const asked = Math.max(0, Math.floor(want));
  if (asked <= held) return asked;
  return Math.max(held, Math.min(asked, perSecond - others));
}
