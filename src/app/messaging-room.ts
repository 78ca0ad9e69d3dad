import type { StateStore } from '../checkpoint/index.js';

const DAY_MS = 86_400_000;

/** The account's messaging limit as the ledger sees it at one moment. */
export interface MessagingRoom {
  /** Distinct recipients messaged outside their 24-hour window in the rolling 24 hours, by every job of the state folder. */
  used: number;
  /** The job's `limits.daily_unique_recipients`, when it sets one. */
  limit?: number;
  /** limit − used, never below 0. */
  room?: number;
  /** With no room: when the oldest counted recipient leaves the rolling 24 hours (ISO). */
  freesAt?: string;
}

/** Room in the rolling 24 hours before `now`, from the store's ledger. */
export async function messagingRoom(store: StateStore, limit: number | undefined, now: number): Promise<MessagingRoom> {
  const ledger = await store.ledger();
  const since = now - DAY_MS;
  const used = ledger.uniqueOutsideWindowSince(since);
  if (limit === undefined) return { used };
  const room = Math.max(0, limit - used);
  const oldest = room === 0 ? ledger.nthOutsideWindowSince(since, used - limit) : undefined;
  return { used, limit, room, ...(oldest !== undefined && { freesAt: new Date(oldest + DAY_MS).toISOString() }) };
}
