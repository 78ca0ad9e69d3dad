import { PhoneIndex } from './phone-index.js';
import { isoText } from '../time/iso.js';
import { allocColumns, decodeRow, encodeRow, growColumns, HAS, phoneNumber, phoneText, RestTable, statusAt, type ColumnRows, type Columns } from './state-columns.js';
import { AttemptSplits, attemptMs, isAttemptTally, Tallies, tallyKey, tallyState, type StateTally, type TallyOptions } from './state-tally.js';
import { countMissing, missingNumbers, unseenPositions } from './unseen-count.js';
import { TableRows } from './table-rows.js';
import type { StateRows, StateRowsOptions } from './state-rows.js';
import type { ContactState, ContactStatus } from './types.js';
import type { ContactListing } from './listing.js';
import type { ContactStates } from './store.js';

/** What replies are matched on, of a sent contact. */
export interface SentSummary {
  sentAt: string;
  clientId?: string;
  conversationId?: string;
}

function sentSummary(s: Extract<ContactState, { status: 'sent' }>): SentSummary {
  return { sentAt: s.sentAt, ...(s.clientId !== undefined && { clientId: s.clientId }), conversationId: s.conversationId };
}

/** States kept as objects, not yet encoded (the last ones set). */
const DIRTY_MAX = 4096;

/** What a snapshot keeps of a table: its columns (the first `rows` rows), the rest texts, and the states kept whole. */
export interface TableImage {
  rows: number;
  columns: Columns;
  rest: readonly string[];
  others: ReadonlyArray<readonly [string, ContactState]>;
  /** The counters by tally (state-tally.ts) the `tally` column points into; absent in an image of before them (then counted again). */
  tallies?: { keys: readonly string[]; counts: readonly number[] };
}

/**
 * Every contact's state of a job, as a Map by phone, held in columns (state-columns.ts) with a hash
 * index (phone-index.ts): no object per contact or per event while a million of them are held. `get`
 * and iteration decode a new state object each time; `set` encodes it. Keys that are not E.164 phones
 * (never written by this program) are kept whole beside the columns. Iteration follows the order in
 * which phones were first set, as a Map's does (the kept-whole ones come last).
 */
export class StateTable implements Map<string, ContactState>, ContactStates {
  private columns: Columns;
  private rows = 0;
  private capacity: number;
  /** Built on first use: a reader that only counts (status) never needs it. */
  private indexBuilt: PhoneIndex | undefined;
  private rest: RestTable;
  /** The encoded rows' counts by tally; the dirty rows, the deleted ones and `others` are settled when read (tallies()). */
  private tally = new Tallies();
  private readonly others = new Map<string, ContactState>();
  /** Rows of deleted phones (rare: a Map may delete). */
  private deleted = new Set<number>();
  /**
   * The states set last, not encoded yet, by row (oldest first): a contact's events come close together
   * in a journal and in a run, so most `get`s of a replay find the state here and most states are
   * encoded once. At most DIRTY_MAX of them.
   */
  private readonly dirty = new Map<number, ContactState>();

  constructor(capacity = 1024) {
    this.capacity = Math.max(16, capacity);
    this.columns = allocColumns(this.capacity);
    this.indexBuilt = new PhoneIndex(this.capacity);
    this.rest = new RestTable();
  }

  /**
   * A table over a snapshot's columns (they are taken, not copied). `index`, when the caller has one of
   * these very rows (a fold that made them), is taken too instead of being built on first use.
   */
  static fromImage(image: TableImage, index?: PhoneIndex): StateTable {
    const table = new StateTable(1);
    table.columns = image.columns;
    table.capacity = image.columns.phone.length;
    table.rows = image.rows;
    table.rest = RestTable.from(image.rest);
    table.indexBuilt = index;
    for (const [phone, state] of image.others) table.others.set(phone, state);
    if (image.tallies) table.tally = Tallies.from(image.tallies.keys, image.tallies.counts);
    else table.recount();
    return table;
  }

  /** What a snapshot writes: a copy of the columns as they are now, so the table may go on changing while it is written. */
  image(): TableImage {
    if (this.deleted.size > 0) this.compactDeleted();
    this.flush(0);
    return {
      rows: this.rows,
      columns: growColumns(this.columns, this.rows, Math.max(1, this.rows)),
      rest: [...this.rest.texts],
      others: [...this.others],
      tallies: { keys: [...this.tally.keys], counts: [...this.tally.counts] },
    };
  }

  get size(): number {
    return this.rows - this.deleted.size + this.others.size;
  }

  readonly [Symbol.toStringTag] = 'StateTable';

  has(phone: string): boolean {
    return this.rowOf(phone) >= 0 || this.others.has(phone);
  }

  get(phone: string): ContactState | undefined {
    const row = this.rowOf(phone);
    if (row >= 0) return this.at(row);
    return this.others.get(phone);
  }

  /** The status of `phone` without decoding its state. */
  statusOf(phone: string): ContactStatus | undefined {
    const row = this.rowOf(phone);
    if (row < 0) return this.others.get(phone)?.status;
    return this.dirty.get(row)?.status ?? statusAt(this.columns, row) ?? this.at(row).status;
  }

  /** The status of each listed contact by its position: looked up by its phone's number, no string made (a phone kept whole by its text). */
  listedStatus(listing: ContactListing): (position: number) => ContactStatus | undefined {
    return (i) => {
      const n = listing.numberAt(i);
      return n === undefined ? this.statusOf(listing.phoneAt(i)) : this.statusOfNumber(n);
    };
  }

  /** The status of the phone stored as the number `n` (state-columns' phoneNumber): no string made. */
  private statusOfNumber(n: number): ContactStatus | undefined {
    const row = this.index.get(n);
    if (row < 0 || (this.deleted.size > 0 && this.deleted.has(row))) return undefined;
    return this.dirty.get(row)?.status ?? statusAt(this.columns, row) ?? this.at(row).status;
  }

  /** Whether the phone stored as the number `n` (state-columns' phoneNumber) has a state: no string made. */
  hasNumber(n: number): boolean {
    const row = this.index.get(n);
    return row >= 0 && !(this.deleted.size > 0 && this.deleted.has(row));
  }

  /**
   * How many of the listing's contacts have no state here: counted by number, no string made. Without
   * the index, both sides' numbers are walked side by side (unseen-count.ts: cheaper than building it for a million).
   */
  countUnseen(listing: ContactListing): number {
    let unseen = 0;
    if (this.indexBuilt) {
      for (const n of listing.numbers()) if (n === undefined || !this.hasNumber(n)) unseen += 1;
    } else {
      let mine = this.columns.phone.subarray(0, this.rows);
      if (this.deleted.size > 0) {
        mine = mine.slice();
        for (const row of this.deleted) mine[row] = -1;
      }
      const listed = listing.phoneColumn();
      if (listing.hasOdd()) for (let i = 0; i < listed.length; i++) if (listing.isOdd(i)) unseen += 1;
      unseen += countMissing(listed, listing.hasOdd() ? (i) => listing.isOdd(i) : undefined, mine, new Set());
    }
    // A phone kept whole (never from the loader) is looked up by its text.
    return unseen - listing.oddPresentIn(this);
  }

  /** The positions of the listing's contacts with no state here, ascending: found by number without an index (unseen-count.ts). */
  unseenAt(listing: ContactListing): Iterable<number> {
    return unseenPositions(listing, this.unseenNumbers(listing), (phone) => this.has(phone));
  }

  /** The numbers of the listing's contacts with no state here (its phones kept whole left out): its pending ones, found without an index. */
  unseenNumbers(listing: ContactListing): ReadonlySet<number> {
    let mine = this.columns.phone.subarray(0, this.rows);
    if (this.deleted.size > 0) {
      mine = mine.slice();
      for (const row of this.deleted) mine[row] = -1;
    }
    return new Set(missingNumbers(listing.phoneColumn(), listing.hasOdd() ? (i) => listing.isOdd(i) : undefined, mine, new Set()).keys());
  }

  /**
   * Each sent contact's phone, send time and ids, read from the columns: a state is decoded only when
   * it has fields outside them (its `rest`) or is among the last ones set.
   */
  *sentEntries(): Generator<[string, SentSummary]> {
    const c = this.columns;
    for (let row = 0; row < this.rows; row++) {
      if (this.deleted.size > 0 && this.deleted.has(row)) continue;
      if (this.dirty.has(row) || c.rest[row] !== 0) {
        const s = this.at(row);
        if (s.status === 'sent') yield [s.phone, sentSummary(s)];
        continue;
      }
      const has = c.has[row] ?? 0;
      if (statusAt(c, row) !== 'sent' || (has & HAS.sentAt) === 0) continue;
      yield [
        phoneText(c.phone[row] ?? 0),
        {
          sentAt: isoText(c.time2[row] ?? 0),
          ...(has & HAS.clientId ? { clientId: String(c.clientId[row]) } : {}),
          ...(has & HAS.conversationId ? { conversationId: String(c.conversationId[row]) } : {}),
        },
      ];
    }
    for (const [phone, s] of this.others) if (s.status === 'sent') yield [phone, sentSummary(s)];
  }

  /**
   * The states' counts by tally (state-tally.ts): the counters the table keeps as it changes, the
   * states set last and the ones kept whole added. No state of the columns is decoded.
   */
  tallies(options: TallyOptions = {}): StateTally[] {
    const extra: ContactState[] = [...this.dirty.values(), ...this.others.values()];
    const counts = [...this.tally.counts];
    for (const row of this.dirty.keys()) {
      const id = this.columns.tally[row] ?? 0;
      if (id !== 0) counts[id] = (counts[id] ?? 0) - 1;
    }
    const since = options.attemptsSince;
    const splits = since === undefined ? undefined : attemptSplits(this.tally.keys, this.columns, this.rows, this.rest.texts, since, (row) => this.dirty.has(row));
    return this.tally.list(extra, counts, options, splits);
  }

  /** The report-row source (table-rows.ts), read from the columns: valid until the table changes. */
  reportRows(options?: StateRowsOptions): StateRows {
    return new TableRows(this.columnRows(), options);
  }

  /** The rows as the columns hold them (nothing copied): valid until the table changes. */
  columnRows(): ColumnRows {
    const { dirty, deleted } = this;
    return {
      columns: this.columns,
      rows: this.rows,
      rest: this.rest.texts,
      encoded: (row) => (dirty.size === 0 || !dirty.has(row)) && (deleted.size === 0 || !deleted.has(row)),
      state: (row) => (deleted.size > 0 && deleted.has(row) ? undefined : this.at(row)),
      others: this.others.values(),
    };
  }

  set(phone: string, state: ContactState): this {
    const n = phone === state.phone ? phoneNumber(phone) : undefined;
    if (n === undefined) {
      this.others.set(phone, state);
      return this;
    }
    let row = this.index.get(n);
    if (row >= 0 && this.deleted.delete(row)) {
      // a phone set again after a delete keeps its old place
    } else if (row < 0) {
      if (this.rows === this.capacity) this.grow();
      row = this.rows++;
      this.columns.phone[row] = n;
      this.columns.tally[row] = 0;
      this.index.set(n, row);
    }
    // Oldest first: a row set again moves to the end.
    this.dirty.delete(row);
    this.dirty.set(row, state);
    if (this.dirty.size > DIRTY_MAX) this.flush(DIRTY_MAX / 2);
    return this;
  }

  delete(phone: string): boolean {
    const row = this.rowOf(phone);
    if (row >= 0) {
      this.dirty.delete(row);
      this.deleted.add(row);
      this.tally.move(this.columns.tally[row] ?? 0, 0);
      this.columns.tally[row] = 0;
      return true;
    }
    return this.others.delete(phone);
  }

  clear(): void {
    this.dirty.clear();
    this.rows = 0;
    this.indexBuilt = new PhoneIndex(this.capacity);
    this.others.clear();
    this.deleted.clear();
    this.rest = new RestTable();
    this.tally = new Tallies();
  }

  forEach(callback: (value: ContactState, key: string, map: Map<string, ContactState>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this);
  }

  *entries(): MapIterator<[string, ContactState]> {
    for (let row = 0; row < this.rows; row++) {
      if (this.deleted.size > 0 && this.deleted.has(row)) continue;
      const state = this.at(row);
      yield [state.phone, state];
    }
    yield* this.others.entries();
  }

  *keys(): MapIterator<string> {
    for (let row = 0; row < this.rows; row++) {
      if (this.deleted.size > 0 && this.deleted.has(row)) continue;
      yield phoneText(this.columns.phone[row] ?? 0);
    }
    yield* this.others.keys();
  }

  *values(): MapIterator<ContactState> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): MapIterator<[string, ContactState]> {
    return this.entries();
  }

  private at(row: number): ContactState {
    return this.dirty.get(row) ?? decodeRow(this.columns, row, this.rest.texts);
  }

  /** Encodes the oldest states set until at most `keep` are left unencoded. */
  private flush(keep: number): void {
    for (const [row, state] of this.dirty) {
      if (this.dirty.size <= keep) return;
      encodeRow(this.columns, row, state, this.rest);
      this.count(row, state);
      this.dirty.delete(row);
    }
  }

  /** Moves row `row`'s count to the tally of `state`, its state now. */
  private count(row: number, state: ContactState): void {
    const to = this.tally.intern(tallyKey(state));
    this.tally.move(this.columns.tally[row] ?? 0, to);
    this.columns.tally[row] = to;
  }

  /** Counts every row again (an image kept before the counters were): each state decoded once. */
  private recount(): void {
    this.tally = new Tallies();
    for (let row = 0; row < this.rows; row++) {
      this.columns.tally[row] = 0;
      this.count(row, decodeRow(this.columns, row, this.rest.texts));
    }
  }

  private get index(): PhoneIndex {
    if (!this.indexBuilt) {
      const index = new PhoneIndex(this.capacity);
      for (let row = 0; row < this.rows; row++) index.set(this.columns.phone[row] ?? 0, row);
      this.indexBuilt = index;
    }
    return this.indexBuilt;
  }

  private rowOf(phone: string): number {
    const n = phoneNumber(phone);
    if (n === undefined) return -1;
    const row = this.index.get(n);
    return row >= 0 && !(this.deleted.size > 0 && this.deleted.has(row)) ? row : -1;
  }

  private grow(): void {
    this.capacity *= 2;
    this.columns = growColumns(this.columns, this.rows, this.capacity);
  }

  /** Rewrites the table without its deleted rows. */
  private compactDeleted(): void {
    const kept = [...this.entries()].filter(([phone]) => !this.others.has(phone));
    const others = [...this.others];
    this.clear();
    for (const [phone, state] of kept) this.set(phone, state);
    for (const [phone, state] of others) this.others.set(phone, state);
  }
}

/**
 * The attempt times of the encoded rows counted under a tally in doubt with no answer (their
 * `attemptAt`, in `rest`), split at `since`; `skip` rows are not counted where their column says.
 * Each `rest` text is read once.
 */
export function attemptSplits(
  keys: readonly string[],
  columns: Pick<Columns, 'tally' | 'rest'>,
  rows: number,
  rest: readonly string[],
  since: number,
  skip: (row: number) => boolean = () => false,
): AttemptSplits {
  const splits = new AttemptSplits(since);
  const attempt = new Uint8Array(keys.length);
  let any = false;
  for (let id = 1; id < keys.length; id++) {
    if (!isAttemptTally(tallyState(keys[id] ?? '{}'))) continue;
    attempt[id] = 1;
    any = true;
  }
  if (!any) return splits;
  const times = new Map<number, number>();
  for (let row = 0; row < rows; row++) {
    const id = columns.tally[row] ?? 0;
    if (attempt[id] !== 1 || skip(row)) continue;
    const text = columns.rest[row] ?? 0;
    let at = times.get(text);
    if (at === undefined) {
      at = attemptMs(JSON.parse(rest[text] ?? '{}') as ContactState);
      times.set(text, at);
    }
    splits.add(id, at);
  }
  return splits;
}
