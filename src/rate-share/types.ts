/**
 * The rate share's types: a run's claim on a sender number's rate, what the store's registry of
 * senders answers, and the registry both backends implement (`checkpoint/file/rate-shares.ts`,
 * `checkpoint/pg/rate-shares.ts`), which the storage port (`StateStore`) carries.
 */

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
 * The store's registry of senders per number: every process sending from a number of the business
 * holds a row there with the share of the number's rate it claims, renewed every few seconds. The sum
 * of the live claims of a number never exceeds its rate (`grantAmong`); a row lapses as `lifetime.ts`
 * says. Claims of every process of the store follow one another (a lock, a transaction).
 */
export interface RateShareRegistry {
  /** Claims (and renews) this sender's share of a number's rate. Lapsed rows are left out. */
  claimRate(claim: RateClaim): Promise<RateShare>;
  /** The sender stops sending from the number: its claim lapses `RATE_SHARE_LEAVE_MS` after `now`. */
  leaveRate(channel: number, sender: string, now: number): Promise<void>;
}

/** What the run's claims move: a number's gate on its limiter (`run/share-gate.ts`). */
export interface ShareHolder {
  /** From now on the process may send `perSecond` from the number until `until` (clock ms); 0: nothing. */
  setShare(perSecond: number, until: number): void;
}
