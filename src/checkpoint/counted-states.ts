import { applyEvent, nextState } from './apply-event.js';
import type { ContactListing } from './listing.js';
import { ListingReadError } from './listing-codec.js';
import { PhoneIndex } from './phone-index.js';
import { phoneNumber } from './state-columns.js';
import type { StateRows, StateRowsOptions } from './state-rows.js';
import type { StateTable } from './state-table.js';
import { listTallies, tallyKey, type AttemptSplits, type StateTally, type TallyOptions } from './state-tally.js';
import type { ContactStates } from './store.js';
import type { ContactEvent, ContactState, ContactStatus } from './types.js';
import type { SentContact } from './inbound.js';
import { countMissing } from './unseen-count.js';

/**
 * A job's states as a snapshot's counters and the journal's tail (the few events after it), for a
 * reader that counts (status): the counters by tally, how many states there are and which of the
 * listing's contacts have none are answered from the snapshot's head, its phone column and the tail
 * folded onto the few states it touches; no other column is read. Anything else (a state, an
 * iteration) reads the whole table once (`SnapshotParts.table`) and folds the tail onto it, so the
 * answers are the same as a table's.
 */

/** What a backend gives of a snapshot for counting, read part by part. */
export interface SnapshotParts {
  /** Rows in the columns. */
  rows: number;
  /** The counters by tally of the rows (state-tally.ts): keys and counts. */
  tallies: { keys: readonly string[]; counts: readonly number[] };
  /** The states kept whole beside the columns (not counted in `tallies`). */
  others: ReadonlyArray<readonly [string, ContactState]>;
  /** The phone column (state-columns' numbers), read and checked; throws when it does not check. */
  phones(): Float64Array;
  /** The same column read part by part as it is iterated (each part may be the same array, refilled): throws once read through when it does not check. */
  phoneParts(): Iterable<Float64Array>;
  /** The states of these rows, each with the tally it is counted under (the `tally` column); throws when they cannot be read. */
  statesAt(rows: readonly number[]): Array<{ state: ContactState; tally: number }>;
  /** The attempt times of the rows (but `skip`) counted under a tally in doubt with no answer, split at `since` (state-tally.ts); throws when they cannot be read. */
  attemptSplits(since: number, skip: ReadonlySet<number>): AttemptSplits;
  /** The whole table, its columns checked; undefined when they do not check. */
  table(): StateTable | undefined;
}

export class CountedStates implements ContactStates {
  private readonly overlay = new Map<string, ContactState>();
  /** Snapshot rows the tail changed, with the tally they were counted under. */
  private readonly touched = new Map<number, number>();
  /** Phones the tail added (in neither the columns nor `others`). */
  private readonly added = new Set<string>();
  private readonly others: Map<string, ContactState>;
  private index: PhoneIndex | undefined;
  private phoneColumn: Float64Array | undefined;
  private whole: StateTable | undefined;

  /**
   * The snapshot's `parts` with the journal's `tail` folded; `fromJournal` folds the whole journal
   * instead, when the columns do not check once read whole. Throws when the tail cannot be counted
   * this way (a row whose tally does not match it): the caller then reads the table whole.
   */
  constructor(
    private readonly parts: SnapshotParts,
    private readonly tail: readonly ContactEvent[],
    private readonly fromJournal: () => StateTable,
  ) {
    this.others = new Map(parts.others);
    if (tail.length === 0) return;
    const rowOf = this.rowsOf(tail.map((e) => e.phone).filter((phone) => !this.others.has(phone)));
    const rows = [...rowOf.values()].filter((row) => row >= 0);
    const priors = parts.statesAt(rows);
    const prior = new Map<string, ContactState>();
    rows.forEach((row, i) => {
      const found = priors[i];
      if (!found || tallyKey(found.state) !== parts.tallies.keys[found.tally]) throw new Error(`row ${row} of the snapshot does not match its counters`);
      prior.set(found.state.phone, found.state);
      this.touched.set(row, found.tally);
    });
    for (const event of tail) {
      const before = this.overlay.get(event.phone) ?? prior.get(event.phone) ?? this.others.get(event.phone);
      if (before === undefined && !this.others.has(event.phone) && (rowOf.get(event.phone) ?? -1) < 0) this.added.add(event.phone);
      this.overlay.set(event.phone, nextState(before, event));
    }
  }

  get size(): number {
    return this.parts.rows + this.others.size + this.added.size;
  }

  readonly [Symbol.toStringTag] = 'CountedStates';

  tallies(options: TallyOptions = {}): StateTally[] {
    let splits: AttemptSplits | undefined;
    if (options.attemptsSince !== undefined) {
      try {
        splits = this.parts.attemptSplits(options.attemptsSince, new Set(this.touched.keys()));
      } catch {
        return this.table().tallies(options);
      }
    }
    const { keys, counts: kept } = this.parts.tallies;
    const counts = [...kept];
    // The rows the tail changed leave the tally their row counts under (the overlay counts them again).
    for (const id of this.touched.values()) if (id !== 0) counts[id] = (counts[id] ?? 0) - 1;
    const extra: ContactState[] = [...this.overlay.values()];
    for (const [phone, s] of this.others) if (!this.overlay.has(phone)) extra.push(s);
    return listTallies(keys, counts, extra, options, splits);
  }

  statusOf(phone: string): ContactStatus | undefined {
    return this.get(phone)?.status;
  }

  has(phone: string): boolean {
    if (this.whole || !this.checkedIndex()) return this.table().has(phone);
    return this.overlay.has(phone) || this.others.has(phone) || this.rowOf(phone) >= 0;
  }

  get(phone: string): ContactState | undefined {
    if (this.whole || !this.checkedIndex()) return this.table().get(phone);
    const s = this.overlay.get(phone) ?? this.others.get(phone);
    if (s !== undefined) return s;
    const row = this.rowOf(phone);
    return row < 0 ? undefined : this.parts.statesAt([row])[0]?.state;
  }

  /**
   * The listing's contacts with no state: their numbers looked up among the snapshot's phones and the
   * tail's, the phones read part by part as they are walked (not held) unless read already.
   */
  countUnseen(listing: ContactListing): number {
    if (this.whole) return this.whole.countUnseen(listing);
    const added = new Set<number>();
    for (const phone of this.added) {
      const n = phoneNumber(phone);
      if (n !== undefined) added.add(n);
    }
    let odd = 0;
    if (listing.hasOdd()) for (let i = 0; i < listing.size; i++) if (listing.isOdd(i)) odd += 1;
    // A listing whose phones no longer check as they are walked is an error of its own (not a reason to read the snapshot whole).
    const listed = listing.phoneNumbers();
    let missing: number;
    try {
      missing = countMissing(listed, listing.hasOdd() ? (i) => listing.isOdd(i) : undefined, this.phoneColumn ?? (() => this.parts.phoneParts()), added);
    } catch (err) {
      if (err instanceof ListingReadError) throw err;
      return this.table().countUnseen(listing);
    }
    return odd + missing - listing.oddPresentIn(this);
  }

  listedStatus(listing: ContactListing): (position: number) => ContactStatus | undefined {
    return this.table().listedStatus(listing);
  }

  unseenAt(listing: ContactListing): Iterable<number> {
    return this.table().unseenAt(listing);
  }

  reportRows(options?: StateRowsOptions): StateRows {
    return this.table().reportRows(options);
  }

  /** Read whole on the first step only (the replies' matcher asks for them only when a reply came in). */
  *sentEntries(): Generator<readonly [string, SentContact]> {
    yield* this.table().sentEntries();
  }

  forEach(callback: (value: ContactState, key: string, map: ReadonlyMap<string, ContactState>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this);
  }

  entries(): MapIterator<[string, ContactState]> {
    return this.table().entries();
  }

  keys(): MapIterator<string> {
    return this.table().keys();
  }

  values(): MapIterator<ContactState> {
    return this.table().values();
  }

  [Symbol.iterator](): MapIterator<[string, ContactState]> {
    return this.entries();
  }

  /** The whole table with the tail folded (read once). */
  private table(): StateTable {
    if (!this.whole) {
      const table = this.parts.table();
      if (table) for (const event of this.tail) applyEvent(table, event);
      this.whole = table ?? this.fromJournal();
    }
    return this.whole;
  }

  /**
   * The snapshot rows of a few phones (-1: none), found by one pass over the phone column: a short
   * tail needs no index of the million phones (its time and its memory).
   */
  private rowsOf(phones: readonly string[]): Map<string, number> {
    const rows = new Map<string, number>();
    const wanted = new Map<number, string>();
    for (const phone of phones) {
      if (rows.has(phone)) continue;
      rows.set(phone, -1);
      const n = phoneNumber(phone);
      if (n !== undefined) wanted.set(n, phone);
    }
    if (wanted.size === 0) return rows;
    if (this.index || wanted.size > 4096) {
      for (const [n, phone] of wanted) rows.set(phone, this.phoneIndex().get(n));
      return rows;
    }
    const column = this.phones();
    for (let row = 0; row < column.length; row++) {
      const phone = wanted.get(column[row] ?? 0);
      if (phone !== undefined) rows.set(phone, row);
    }
    return rows;
  }

  private rowOf(phone: string): number {
    const n = phoneNumber(phone);
    return n === undefined ? -1 : this.phoneIndex().get(n);
  }

  /** The index of the snapshot's phones, or undefined when their column does not check (the table is then read whole). */
  private checkedIndex(): PhoneIndex | undefined {
    try {
      return this.phoneIndex();
    } catch {
      return undefined;
    }
  }

  /** The snapshot's phone column, read once. */
  private phones(): Float64Array {
    this.phoneColumn ??= this.parts.phones();
    return this.phoneColumn;
  }

  private phoneIndex(): PhoneIndex {
    if (!this.index) {
      const phones = this.phones();
      const index = new PhoneIndex(phones.length);
      for (let row = 0; row < phones.length; row++) index.set(phones[row] ?? 0, row);
      this.index = index;
    }
    return this.index;
  }
}
