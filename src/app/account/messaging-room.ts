import type { StateStore } from '../../checkpoint/index.js';

const DAY_MS = 86_400_000;

/** The account's messaging limit as the ledger sees it at one moment. */
export interface MessagingRoom {
  /** Distinct recipients messaged outside their 24-hour window in the rolling 24 hours, by every job of the store. */
  used: number;
  /** Places of the limit that running processes hold and have not used yet (absent: none). */
  held?: number;
  /** The job's `limits.daily_unique_recipients`, when it sets one. */
  limit?: number;
  /** limit − used − held, never below 0: the store's room, for every job and process. */
  room?: number;
  /** With no room: when the oldest counted recipient leaves the rolling 24 hours (ISO). */
  freesAt?: string;
}

/** Room in the rolling 24 hours before `now`, from the store's ledger and the places running processes hold. */
export async function messagingRoom(store: StateStore, limit: number | undefined, now: number): Promise<MessagingRoom> {
  const since = now - DAY_MS;
  // With no limit only the count is shown: the window's lines are read (with one, the places held read the whole ledger anyway).
  const ledger = limit === undefined && store.recentLedger ? await store.recentLedger(since) : await store.ledger();
  const used = ledger.uniqueOutsideWindowSince(since);
  if (limit === undefined) return { used };
  const held = (await store.placesHeld?.(now)) ?? 0;
  const room = Math.max(0, limit - used - held);
  // With no room, the ledger's oldest recipient past the limit frees the next place (places held may be given back sooner).
  const oldest = room === 0 && used >= limit ? ledger.nthOutsideWindowSince(since, used - limit) : undefined;
  return { used, ...(held > 0 && { held }), limit, room, ...(oldest !== undefined && { freesAt: new Date(oldest + DAY_MS).toISOString() }) };
}
