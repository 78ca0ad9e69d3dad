import { phoneNumber, phoneText } from './state-columns.js';

/** A usable contact of the list, by key: its E.164 phone and its line. */
export interface ListedContact {
  phone: string;
  line: number;
}

/**
 * The list's usable contacts in list order, as a full read of it found them (less the rows the planner
 * rejected): what status and report count as pending when the job's state has no contact for them.
 * Held in two typed arrays (12 bytes a contact), not an object per contact.
 */
export class ContactListing implements Iterable<ListedContact> {
  private phones: Float64Array;
  private lines: Int32Array;
  private count = 0;
  /** Phones that are not E.164 numbers, by position (the loader never gives one; kept whole all the same). */
  private readonly odd = new Map<number, string>();

  constructor(capacity = 1024) {
    this.phones = new Float64Array(Math.max(16, capacity));
    this.lines = new Int32Array(Math.max(16, capacity));
  }

  static fromColumns(phones: Float64Array, lines: Int32Array, count: number, odd: ReadonlyArray<readonly [number, string]>): ContactListing {
    const listing = new ContactListing(1);
    listing.phones = phones;
    listing.lines = lines;
    listing.count = count;
    for (const [at, phone] of odd) listing.odd.set(at, phone);
    return listing;
  }

  get size(): number {
    return this.count;
  }

  add(phone: string, line: number): void {
    if (this.count === this.phones.length) {
      const phones = new Float64Array(Math.max(16, this.count * 2));
      phones.set(this.phones);
      const lines = new Int32Array(Math.max(16, this.count * 2));
      lines.set(this.lines);
      this.phones = phones;
      this.lines = lines;
    }
    const n = phoneNumber(phone);
    if (n === undefined) this.odd.set(this.count, phone);
    this.phones[this.count] = n ?? 0;
    this.lines[this.count] = line;
    this.count += 1;
  }

  *[Symbol.iterator](): Iterator<ListedContact> {
    for (let i = 0; i < this.count; i++) yield { phone: this.phoneAt(i), line: this.lines[i] ?? 0 };
  }

  /** The contacts `keep` accepts, as a new listing. */
  filter(keep: (phone: string) => boolean): ContactListing {
    const out = new ContactListing(this.count);
    for (const c of this) if (keep(c.phone)) out.add(c.phone, c.line);
    return out;
  }

  /** What a store writes: the first `size` phones (as numbers) and lines, and the odd phones by position. */
  columns(): { phones: Float64Array; lines: Int32Array; odd: Array<[number, string]> } {
    return { phones: this.phones.subarray(0, this.count), lines: this.lines.subarray(0, this.count), odd: [...this.odd] };
  }

  private phoneAt(i: number): string {
    return this.odd.get(i) ?? phoneText(this.phones[i] ?? 0);
  }
}
