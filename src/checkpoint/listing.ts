import type { ListingReads } from './listing-reads.js';
import { PhoneIndex } from './phone-index.js';
import { phoneNumber, phoneText } from './state-columns.js';

/** A usable contact of the list, by key, with what the report shows of its row. */
export interface ListedContact {
  /** E.164. */
  phone: string;
  line: number;
  /** The file the row came from. */
  file?: string;
  name?: string;
  /** The phone cell as written in the file. */
  phoneAsWritten?: string;
  /** The contact's variant label, when the job has variants. */
  variant?: string;
}

/**
 * A column of phone numbers as a whole array, or read part by part (`parts()`, called once for each
 * pass, gives its numbers in order, in pieces the caller may reuse; it may throw once read through,
 * when they do not check): a reader that counts need not hold a million numbers at once
 * (unseen-count.ts walks a listing's against a state's).
 */
export type PhoneNumbers = Float64Array | (() => Iterable<Float64Array>);

/** The phones of a listing left where they are (a store's image): read part by part, or whole; each read checked (it throws when they do not check). */
export interface ListingPhones {
  /** The numbers in order, in parts (each may be the same array, refilled); throws once read through when they do not check. */
  parts(): Iterable<Float64Array>;
  whole(): Float64Array;
}

/** No file, no variant: the code kept for them. */
const NONE = 0xffff;
const HAS_NAME = 1;
const HAS_WRITTEN = 2;

/** The arrays a store writes and reads back (see listing-file.ts). */
export interface ListingColumns {
  count: number;
  phones: Float64Array;
  lines: Int32Array;
  /** Index into `files`, or 0xffff. */
  fileOf: Uint16Array;
  /** Index into `variants`, or 0xffff. */
  variantOf: Uint16Array;
  /** HAS_NAME | HAS_WRITTEN. */
  flags: Uint8Array;
  /** Where each contact's texts start in `texts` (count + 1 entries: the last is the end). */
  textStart: Uint32Array;
  /** Each contact's name then phone as written, UTF-8, with a NUL between. */
  texts: Buffer;
  files: string[];
  variants: string[];
  /** Phones that are not E.164 numbers, by position (the loader never gives one; kept whole all the same). */
  odd: Array<[number, string]>;
}

/**
 * The list's usable contacts in list order, as a full read of it found them (less the rows the planner
 * rejected): what status counts as pending and what the report shows of each row. Held in typed arrays
 * and one buffer of texts (about 50 bytes a contact), not an object per contact.
 */
export class ContactListing implements Iterable<ListedContact> {
  /** What the listing was read from, file by file (listing-reads.ts); undefined for a listing kept before it was, or not yet kept. */
  reads: ListingReads | undefined;
  /** The source its image names, for a listing read back from a store (StateStore.lastListing); else undefined. */
  source: string | undefined;
  private whole: ListingColumns | undefined;
  /** A listing read in part (its phones only): how its other arrays are read, on first need. */
  private rest: (() => ListingColumns) | undefined;
  /** The count and the phones, known without the other arrays (the phones undefined while they are read part by part only: `phoneSource`). */
  private count = 0;
  private phones: Float64Array | undefined = new Float64Array(0);
  private phoneSource: ListingPhones | undefined;
  private textEnd = 0;
  private readonly fileCodes = new Map<string, number>();
  private readonly variantCodes = new Map<string, number>();
  private readonly odd = new Map<number, string>();
  private index: PhoneIndex | undefined;

  constructor(capacity = 1024) {
    const n = Math.max(16, capacity);
    this.whole = {
      count: 0,
      phones: new Float64Array(n),
      lines: new Int32Array(n),
      fileOf: new Uint16Array(n),
      variantOf: new Uint16Array(n),
      flags: new Uint8Array(n),
      textStart: new Uint32Array(n + 1),
      texts: Buffer.alloc(n * 16),
      files: [],
      variants: [],
      odd: [],
    };
  }

  /** A listing over arrays read back (they are taken, not copied). */
  static fromColumns(columns: ListingColumns): ContactListing {
    const listing = new ContactListing(1);
    listing.c = columns;
    for (const [at, phone] of columns.odd) listing.odd.set(at, phone);
    return listing;
  }

  /**
   * A listing of which only the phones were read (`count` of them, the odd ones by position): counting
   * pending contacts needs no more. `rest` reads the whole arrays the first time a contact is asked for.
   * The phones may be left where they are too (`ListingPhones`: read part by part for a count).
   */
  static ofPhones(count: number, phones: Float64Array | ListingPhones, odd: ReadonlyArray<readonly [number, string]>, rest: () => ListingColumns): ContactListing {
    const listing = new ContactListing(1);
    listing.whole = undefined;
    listing.rest = rest;
    listing.count = count;
    if (phones instanceof Float64Array) listing.phones = phones;
    else {
      listing.phones = undefined;
      listing.phoneSource = phones;
    }
    for (const [at, phone] of odd) listing.odd.set(at, phone);
    return listing;
  }

  /** The arrays, read whole on first need for a listing read in part. */
  private get c(): ListingColumns {
    if (!this.whole) {
      const read = this.rest;
      if (!read) throw new Error('a listing without its arrays');
      this.rest = undefined;
      this.c = read();
    }
    return this.whole as ListingColumns;
  }

  private set c(columns: ListingColumns) {
    this.whole = columns;
    this.textEnd = columns.textStart[columns.count] ?? 0;
    this.fileCodes.clear();
    this.variantCodes.clear();
    columns.files.forEach((f, i) => this.fileCodes.set(f, i));
    columns.variants.forEach((v, i) => this.variantCodes.set(v, i));
  }

  get size(): number {
    return this.whole ? this.whole.count : this.count;
  }

  /** The phone column (state-columns' numbers; a phone kept whole is 0 there, see `isOdd`), without reading the other arrays. */
  phoneColumn(): Float64Array {
    if (this.whole) return this.whole.phones.subarray(0, this.whole.count);
    this.phones ??= this.phoneSource?.whole() ?? new Float64Array(this.count);
    return this.phones.subarray(0, this.count);
  }

  /** The same numbers for a walk through them once: the column, or its parts read as they are walked when the listing holds none (`ListingPhones`). */
  phoneNumbers(): PhoneNumbers {
    const source = this.phoneSource;
    return this.whole || this.phones || !source ? this.phoneColumn() : () => source.parts();
  }

  /** Whether any phone is kept whole. */
  hasOdd(): boolean {
    return this.odd.size > 0;
  }

  /** Whether the phone at position `i` is kept whole (not an E.164 number). */
  isOdd(i: number): boolean {
    return this.odd.size > 0 && this.odd.has(i);
  }

  add(contact: ListedContact): void {
    const i = this.c.count;
    if (i === this.c.phones.length) this.grow(Math.max(16, i * 2));
    const c = this.c;
    const n = phoneNumber(contact.phone);
    if (n === undefined) this.odd.set(i, contact.phone);
    c.phones[i] = n ?? 0;
    c.lines[i] = contact.line;
    c.fileOf[i] = contact.file === undefined ? NONE : code(this.fileCodes, c.files, contact.file);
    c.variantOf[i] = contact.variant === undefined ? NONE : code(this.variantCodes, c.variants, contact.variant);
    c.flags[i] = (contact.name !== undefined ? HAS_NAME : 0) | (contact.phoneAsWritten !== undefined ? HAS_WRITTEN : 0);
    // NUL parts the two texts; one inside a cell (a broken export) is kept as U+FFFD.
    const name = noNul(contact.name ?? '');
    const written = noNul(contact.phoneAsWritten ?? '');
    // Room for the most their UTF-8 can take: 3 bytes for each UTF-16 unit, and the NUL.
    const most = 3 * (name.length + written.length) + 1;
    if (this.textEnd + most > c.texts.length) {
      const texts = Buffer.alloc(Math.max(c.texts.length * 2, this.textEnd + most));
      c.texts.copy(texts, 0, 0, this.textEnd);
      c.texts = texts;
    }
    c.textStart[i] = this.textEnd;
    let at = this.textEnd + putUtf8(c.texts, name, this.textEnd);
    c.texts[at++] = 0;
    at += putUtf8(c.texts, written, at);
    this.textEnd = at;
    c.textStart[i + 1] = this.textEnd;
    c.count += 1;
    if (this.index && n !== undefined && this.index.get(n) < 0) this.index.set(n, i);
  }

  /** The contact at position `i` (0 ≤ i < size). */
  at(i: number): ListedContact {
    const c = this.c;
    const flags = c.flags[i] ?? 0;
    const text = c.texts.toString('utf8', c.textStart[i] ?? 0, c.textStart[i + 1] ?? 0);
    const nul = text.indexOf('\u0000');
    const name = nul === -1 ? text : text.slice(0, nul);
    const written = nul === -1 ? '' : text.slice(nul + 1);
    const file = c.fileOf[i] ?? NONE;
    const variant = c.variantOf[i] ?? NONE;
    return {
      phone: this.odd.get(i) ?? phoneText(c.phones[i] ?? 0),
      line: c.lines[i] ?? 0,
      ...(file !== NONE && { file: c.files[file] }),
      ...(flags & HAS_NAME && { name }),
      ...(flags & HAS_WRITTEN && { phoneAsWritten: written }),
      ...(variant !== NONE && { variant: c.variants[variant] }),
    };
  }

  /** The number of the contact at position `i`'s phone (state-columns' phoneNumber); undefined for one kept whole. */
  numberAt(i: number): number | undefined {
    return this.odd.size > 0 && this.odd.has(i) ? undefined : this.c.phones[i];
  }

  /** The phone of the contact at position `i`, without building the contact. */
  phoneAt(i: number): string {
    return this.odd.get(i) ?? phoneText(this.c.phones[i] ?? 0);
  }

  /** The listed contact with this phone (the first, should the list hold it twice), built on first use. */
  get(phone: string): ListedContact | undefined {
    const n = phoneNumber(phone);
    if (n === undefined) {
      for (const [i, odd] of this.odd) if (odd === phone) return this.at(i);
      return undefined;
    }
    const index = this.phoneIndex();
    const i = index.get(n);
    return i >= 0 ? this.at(i) : undefined;
  }

  *[Symbol.iterator](): Iterator<ListedContact> {
    for (let i = 0; i < this.c.count; i++) yield this.at(i);
  }

  /** Each contact's phone as state-columns' number, or undefined for a phone kept whole. */
  *numbers(): Generator<number | undefined> {
    const phones = this.phoneColumn();
    for (let i = 0; i < phones.length; i++) yield this.odd.has(i) ? undefined : phones[i];
  }

  /** The phones stored as numbers (the ones kept whole left out), sorted: a copy. */
  sortedNumbers(): Float64Array {
    const out = this.phoneColumn().slice();
    if (this.odd.size === 0) return out.sort();
    const kept = out.filter((_, i) => !this.odd.has(i));
    return kept.sort();
  }

  /** How many of the phones kept whole `states` has (a count by number takes them all for missing). */
  oddPresentIn(states: { has(phone: string): boolean }): number {
    let found = 0;
    for (const phone of this.odd.values()) if (states.has(phone)) found += 1;
    return found;
  }

  /** The contacts `keep` accepts, as a new listing. */
  filter(keep: (phone: string) => boolean): ContactListing {
    const out = new ContactListing(this.c.count);
    for (const contact of this) if (keep(contact.phone)) out.add(contact);
    return out;
  }

  /** What a store writes: the arrays cut to the contacts held. */
  columns(): ListingColumns {
    const c = this.c;
    const n = c.count;
    return {
      count: n,
      phones: c.phones.subarray(0, n),
      lines: c.lines.subarray(0, n),
      fileOf: c.fileOf.subarray(0, n),
      variantOf: c.variantOf.subarray(0, n),
      flags: c.flags.subarray(0, n),
      textStart: c.textStart.subarray(0, n + 1),
      texts: c.texts.subarray(0, this.textEnd),
      files: c.files,
      variants: c.variants,
      odd: [...this.odd],
    };
  }

  private phoneIndex(): PhoneIndex {
    if (!this.index) {
      const phones = this.phoneColumn();
      const index = new PhoneIndex(phones.length);
      for (let i = 0; i < phones.length; i++) {
        if (this.odd.has(i)) continue;
        const n = phones[i] ?? 0;
        if (index.get(n) < 0) index.set(n, i);
      }
      this.index = index;
    }
    return this.index;
  }

  private grow(capacity: number): void {
    const c = this.c;
    const copy = <T extends Float64Array | Int32Array | Uint16Array | Uint8Array | Uint32Array>(from: T, make: (n: number) => T, n: number): T => {
      const to = make(n);
      to.set(from as never);
      return to;
    };
    this.c = {
      ...c,
      phones: copy(c.phones, (n) => new Float64Array(n), capacity),
      lines: copy(c.lines, (n) => new Int32Array(n), capacity),
      fileOf: copy(c.fileOf, (n) => new Uint16Array(n), capacity),
      variantOf: copy(c.variantOf, (n) => new Uint16Array(n), capacity),
      flags: copy(c.flags, (n) => new Uint8Array(n), capacity),
      textStart: copy(c.textStart, (n) => new Uint32Array(n), capacity + 1),
    };
  }
}

/** The code of `value` in `list`, added when new (at most 0xffff of them; past that a value is not kept). */
function code(codes: Map<string, number>, list: string[], value: string): number {
  let found = codes.get(value);
  if (found === undefined) {
    if (list.length >= NONE) return NONE;
    found = list.length;
    list.push(value);
    codes.set(value, found);
  }
  return found;
}

/**
 * Writes `text` as UTF-8 at `at` (the room checked by the caller); the bytes written. A short ASCII
 * text (a name, a phone as written) is copied here, without a call into the buffer's encoder.
 */
function putUtf8(buffer: Buffer, text: string, at: number): number {
  const length = text.length;
  if (length > 64) return buffer.write(text, at);
  for (let i = 0; i < length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0x80) return buffer.write(text, at);
    buffer[at + i] = unit;
  }
  return length;
}

function noNul(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '\uFFFD') : text;
}
