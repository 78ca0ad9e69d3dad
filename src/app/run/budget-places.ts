/**
 * A run's places in the store's messaging limit. The limit is one budget for every job and process
 * of the store, so a run does not decide from its own count: before each contact it makes sure it
 * holds places for the contacts about to be decided (the store grants them atomically, in chunks of
 * a couple of seconds of sending, not one round trip per message), and a contact that would go
 * outside its window is sent only on a place held and not yet promised to another (protection/compliance.ts
 * reads `holder.held`). A first message outside the window is recorded `from` the holder
 * (sends-ledger.ts): the place moves into the ledger. At the end the run gives back what it did not
 * use. While the store has no room, it is asked again at most once per refresh interval, unless the
 * ledger as this process sees it frees a place (a take-back, a recipient leaving the 24 hours).
 */
import type { BudgetHolder } from '../../checkpoint/index.js';
import type { ComplianceLookups } from '../protection/index.js';

const DAY_MS = 86_400_000;
/** Places are taken for about this many seconds of sending at the job's rate. */
const CHUNK_SECONDS = 2;
/** ...but never more at once (a run that ends early gives them back; one that dies holds them minutes). */
const MAX_CHUNK = 1_000;
/** A hold is renewed this often (wall clock): the store lets a hold lapse, as a job's lease, 30 seconds after its last sign of life. */
export const RENEW_EVERY_MS = 10_000;

export interface BudgetPlaces {
  readonly holder: BudgetHolder;
  /** Before a contact is decided: tops the places up when few are left unpromised. */
  beforeContact(now: number): Promise<void>;
  /** Stops renewing the places (the run's sends are over; the holder gives them back). Safe to call twice. */
  stop(): void;
  /** Gives the unused places back (the run ends or stops). Safe to call twice. */
  release(): Promise<void>;
}

export interface PlacesSizing {
  /** The job's rate, contacts per second. */
  perSecond: number;
  /** Contacts decided at once at most (the workers). */
  workers: number;
  /** As complianceLookups' refreshEveryMs (wall ms): how often at most a store with no room is asked again. */
  refreshEveryMs: number;
}

/** How many places a run asks for at once, and below how many unpromised places it asks again. */
export function placesChunk(sizing: Pick<PlacesSizing, 'perSecond' | 'workers'>): { chunk: number; lowWater: number } {
  // Every worker may decide a contact between a top-up and its own decision: each finds a place.
  const lowWater = sizing.workers + 1;
  return { lowWater, chunk: Math.max(2 * lowWater, Math.min(MAX_CHUNK, Math.ceil(sizing.perSecond * CHUNK_SECONDS))) };
}

export function budgetPlaces(holder: BudgetHolder, c: ComplianceLookups, limit: number, sizing: PlacesSizing & { clock?: () => number }): BudgetPlaces {
  const { chunk, lowWater } = placesChunk(sizing);
  // A run alive keeps its places, whether it decides contacts now or waits (a 429, a slow platform); a run that died gives them back within the lapse.
  const renewal = setInterval(() => {
    if (holder.held > 0) void holder.renew((sizing.clock ?? Date.now)()).catch(() => undefined);
  }, RENEW_EVERY_MS);
  renewal.unref();
  /** After a take the store could not fill: when (wall) and the room this process saw then. */
  let short: { wall: number; localRoom: number } | undefined;
  /** The room as this process's ledger shows it, less what it holds (other processes' holds unseen). */
  const localRoom = (now: number) => limit - c.ledger.uniqueOutsideWindowSince(now - DAY_MS) - holder.held;
  return {
    holder,
    async beforeContact(now) {
      const free = holder.held - c.reservations.size;
      if (free >= lowWater) return;
      if (short !== undefined && performance.now() - short.wall < sizing.refreshEveryMs && localRoom(now) <= short.localRoom) return;
      const want = Math.max(0, chunk - free);
      const granted = await holder.take(want, limit, now);
      short = granted < want ? { wall: performance.now(), localRoom: localRoom(now) } : undefined;
    },
    stop: () => clearInterval(renewal),
    release: () => {
      clearInterval(renewal);
      return holder.release();
    },
  };
}
