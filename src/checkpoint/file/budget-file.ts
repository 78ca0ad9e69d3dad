/**
 * The messaging-limit places of a file store, shared by every process of the state folder through
 * `<stateDir>/budget-holds.json`, which says how many places each holder took in all and when it
 * last took:
 *
 *   {"v":1,"holds":{"6f1c…":{"granted":40,"touched":"2026-03-01T12:00:00.000Z","pid":4121,"host":"runner-a"}}}
 *
 * A holder's places used so far are its lines in the ledger (an entry recorded `from` it carries its
 * id: the place moves from the hold to the ledger in that one write), so a hold's unused places are
 * `granted` less its lines, read from the same ledger. A take reads the ledger again and rewrites
 * the holds file (atomically, by rename) under the lock `budget-holds.lock`: every process counts
 * the ledger's distinct recipients and every live holder's unused places, and none is granted more
 * than the limit leaves. A hold neither taken from nor used for 5 minutes (its process died) lapses:
 * its unused places are no longer counted. A crash between a ledger line and anything else can
 * only over-count (the line is read with the holder's id or not at all). The limit is each company's
 * own: a hold carries its company, and a take of one company counts its holds (and those of no company).
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { inCompany, type BudgetHolder, type LedgerEntry, type LedgerView } from '../ledger.js';
import { withShortLock } from './lock.js';
import { isProcessAlive } from '../process-alive.js';
import { StateFileError, stateFileError, storeWriteError } from './state-file-error.js';
import { writeFileAtomic } from '../../files/atomic.js';

const DAY_MS = 86_400_000;
/**
 * A hold neither taken from, renewed nor used for this long (store time, the callers' `now`) lapses, as a
 * job's lease does; one of this host whose process is gone lapses at once.
 */
export const HOLD_EXPIRY_MS = 30_000;
const WHAT = 'the messaging-limit holds';

interface StoredHold {
  granted: number;
  /** Epoch ms of the last take (the callers' clock). */
  touched: number;
  pid?: number;
  host?: string;
  /** The company whose limit it holds places of (absent in holds written before companies were kept). */
  company?: number;
}

/** A holder as this process knows it: its id in the holds file, the places taken in all, and those used here. */
interface OwnHold {
  id: string;
  granted: number;
  used: number;
}

const own = new WeakMap<BudgetHolder, OwnHold>();

/** A messaging-limit holder's places used, as its ledger lines show: how many, and the latest one's time (epoch ms). */
export interface HoldUse {
  used: number;
  lastAt: number;
}

/** What the holds read of the ledger (ledger-file.ts): the recipients it counts, and each holder's lines. */
export interface HoldsLedger extends Pick<LedgerView, 'uniqueOutsideWindowSince'> {
  holdUse(id: string): HoldUse | undefined;
}

/**
 * For the ledger file: an entry recorded `from` a holder of this backend uses one of its places when
 * it has one (an outside-window entry); the id to write on the entry's line, else undefined.
 */
export function usePlace(from: BudgetHolder | undefined, entry: LedgerEntry): string | undefined {
  const hold = from && own.get(from);
  if (hold === undefined || !entry.outsideWindow || hold.granted - hold.used <= 0) return undefined;
  hold.used += 1;
  return hold.id;
}

export function fileBudgetHolder(ledger: () => Promise<HoldsLedger>, files: { holds: string; lock: string }, company?: number): BudgetHolder {
  const hold: OwnHold = { id: randomBytes(8).toString('hex'), granted: 0, used: 0 };
  /** The holds file has an entry of ours (release removes it, used up or not). */
  let written = false;
  /** Takes of this holder go one after another: each reads what the one before wrote. */
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };
  const holder: BudgetHolder = {
    get held() {
      return Math.max(0, hold.granted - hold.used);
    },
    take(want, limit, now) {
      return serial(() =>
        withShortLock(files.lock, WHAT, async () => {
          const l = await ledger();
          const all = await readHolds(files.holds);
          const holds = live(all, l, now, company);
          const mine = holds.get(hold.id);
          // Our hold lapsed (this process stood still for minutes) or was never written: what we held is no longer ours.
          if (mine === undefined && hold.granted > hold.used) hold.granted = hold.used;
          let busy = l.uniqueOutsideWindowSince(now - DAY_MS);
          for (const [id, h] of holds) if (id !== hold.id) busy += unused(h, l, id);
          // Our own places as the ledger read now shows them used: a use whose line is not on disk yet is not among its
          // recipients either, so it still counts here (the local count of uses would leave it out of both).
          busy += Math.max(0, hold.granted - (l.holdUse(hold.id)?.used ?? 0));
          const granted = Math.max(0, Math.min(Math.floor(want), limit - busy));
          hold.granted += granted;
          // Other companies' holds are kept as they are (their own takes decide when they lapse).
          for (const [id, h] of all) if (!inCompany(h, company) && !holds.has(id)) holds.set(id, h);
          holds.set(hold.id, { granted: hold.granted, touched: now, pid: process.pid, host: hostname(), ...(company !== undefined && { company }) });
          await writeHolds(files.holds, holds);
          written = true;
          return granted;
        }),
      );
    },
    renew(now) {
      return serial(async () => {
        if (!written) return;
        await withShortLock(files.lock, WHAT, async () => {
          const holds = await readHolds(files.holds);
          const mine = holds.get(hold.id);
          if (mine === undefined) return;
          holds.set(hold.id, { ...mine, touched: Math.max(mine.touched, now) });
          await writeHolds(files.holds, holds);
        });
      });
    },
    release() {
      return serial(async () => {
        if (!written) return;
        written = false;
        hold.granted = hold.used;
        await withShortLock(files.lock, WHAT, async () => {
          const holds = await readHolds(files.holds);
          if (holds.delete(hold.id)) await writeHolds(files.holds, holds);
        });
      });
    },
  };
  own.set(holder, hold);
  return holder;
}

/** Every live hold's unused places at `now`, read without the lock (the holds file is replaced whole). */
export async function placesHeld(ledger: () => Promise<HoldsLedger>, holdsFile: string, now: number, company?: number): Promise<number> {
  const l = await ledger();
  let held = 0;
  for (const [id, h] of live(await readHolds(holdsFile), l, now, company)) held += unused(h, l, id);
  return held;
}

/** The places the hold `id` has not used, as the ledger read now shows its lines. */
function unused(h: StoredHold, ledger: HoldsLedger, id: string): number {
  return Math.max(0, h.granted - (ledger.holdUse(id)?.used ?? 0));
}

/** The holds of `company` (and of none) not lapsed at `now`: taken from, or used (a ledger line of theirs), within the expiry. */
function live(holds: Map<string, StoredHold>, ledger: HoldsLedger, now: number, company: number | undefined): Map<string, StoredHold> {
  const kept = new Map<string, StoredHold>();
  for (const [id, h] of holds) {
    if (!inCompany(h, company)) continue;
    if (h.host === hostname() && h.pid !== undefined && h.pid !== process.pid && !isProcessAlive(h.pid)) continue;
    const last = Math.max(h.touched, ledger.holdUse(id)?.lastAt ?? -Infinity);
    if (now - last <= HOLD_EXPIRY_MS) kept.set(id, h);
  }
  return kept;
}

async function readHolds(file: string): Promise<Map<string, StoredHold>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw stateFileError(err, file);
  }
  const holds = new Map<string, StoredHold>();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Written whole by rename, so never torn: unreadable means edited by hand. Counting no hold could overshoot the limit.
    throw new StateFileError(`${file} is not readable JSON; stop every outreach run of this state folder, delete it, and run again`);
  }
  const stored = (value as { holds?: unknown } | null)?.holds;
  if (typeof stored !== 'object' || stored === null) return holds;
  for (const [id, h] of Object.entries(stored as Record<string, unknown>)) {
    const { granted, touched, pid, host, company } = (h ?? {}) as Record<string, unknown>;
    const at = typeof touched === 'string' ? Date.parse(touched) : NaN;
    if (typeof granted !== 'number' || !Number.isFinite(granted) || Number.isNaN(at)) continue;
    holds.set(id, { granted, touched: at, ...(typeof pid === 'number' && { pid }), ...(typeof host === 'string' && { host }), ...(typeof company === 'number' && { company }) });
  }
  return holds;
}

async function writeHolds(file: string, holds: Map<string, StoredHold>): Promise<void> {
  const out: Record<string, unknown> = {};
  for (const [id, h] of holds) {
    out[id] = { granted: h.granted, touched: new Date(h.touched).toISOString(), ...(h.pid !== undefined && { pid: h.pid }), ...(h.host !== undefined && { host: h.host }), ...(h.company !== undefined && { company: h.company }) };
  }
  await writeFileAtomic(file, `${JSON.stringify({ v: 1, holds: out })}\n`).catch((err: unknown) => {
    throw storeWriteError(err, file, WHAT);
  });
}
