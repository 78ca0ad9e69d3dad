import { DELIVERY_AT, HAS, type ColumnRows, type Columns } from './state-columns.js';
import { HELD, type StateRows, type StateRowsOptions } from './state-rows.js';
import type { ContactState } from './types.js';

/**
 * The report-row source of a state table (state-rows.ts), read straight from its columns: a row's
 * shape is its status, which fields the columns hold, its booleans, delivery and action codes, and its
 * `rest` text with the fields the reader does not read left out (ids found once per text), interned.
 * Rows the columns do not hold (set last, not encoded yet) and the states kept whole have shape -1.
 */
export class TableRows implements StateRows {
  private row = -1;
  private readonly others: Iterator<ContactState>;
  private other: ContactState | undefined;
  private readonly unread: ReadonlySet<string>;
  private readonly unreadKeys: readonly string[];
  /** Each `rest` text's id among the texts that differ in what the reader reads, found on first use. */
  private readonly restIds: Int32Array;
  private readonly readTexts = new Map<string, number>();
  private readonly shapes = new Map<number, Map<number, number>>();
  /** The key and shape its rows had last, by `rest` id: runs of one shape skip the maps. */
  private readonly lastKey: number[] = [];
  private readonly lastShape: number[] = [];
  private readonly viaRead: boolean;
  /** The table's columns (the same arrays while the cursor is read: the table does not change meanwhile). */
  private readonly c: Readonly<Columns>;
  shape = -1;

  constructor(
    private readonly t: ColumnRows,
    options: StateRowsOptions = {},
  ) {
    this.c = t.columns;
    this.others = t.others[Symbol.iterator]();
    this.unread = new Set(options.unread ?? []);
    this.unreadKeys = [...this.unread].map((key) => JSON.stringify(key));
    this.restIds = new Int32Array(t.rest.length).fill(-1);
    this.viaRead = !this.unread.has('via');
  }

  next(): boolean {
    const t = this.t;
    while (++this.row < t.rows) {
      if (t.encoded(this.row)) {
        this.shape = this.shapeOf(this.row);
        return true;
      }
      if (t.state(this.row) !== undefined) {
        this.shape = -1;
        return true;
      }
    }
    this.row = t.rows;
    this.shape = -1;
    const step = this.others.next();
    this.other = step.done === true ? undefined : step.value;
    return this.other !== undefined;
  }

  get held(): number {
    if (this.shape < 0) return 0;
    const c = this.c;
    const row = this.row;
    const has = c.has[row] ?? 0;
    const delivery = c.delivery[row] ?? 0;
    return (
      (has & HAS.conversationId ? HELD.conversationId : 0) |
      (has & HAS.clientId ? HELD.clientId : 0) |
      (has & HAS.messageId ? HELD.messageId : 0) |
      (has & HAS.attempts ? HELD.attempts : 0) |
      (has & HAS.line ? HELD.line : 0) |
      (has & HAS.httpStatus ? HELD.httpStatus : 0) |
      (has & HAS.updatedAt ? HELD.updatedAt : 0) |
      (has & HAS.sentAt ? HELD.sentAt : 0) |
      (has & HAS.notBefore ? HELD.notBefore : 0) |
      (delivery & DELIVERY_AT.deliveredAt ? HELD.deliveredAt : 0) |
      (delivery & DELIVERY_AT.readAt ? HELD.readAt : 0)
    );
  }

  get phone(): number {
    return this.c.phone[this.row] ?? 0;
  }

  get conversationId(): number {
    return this.c.conversationId[this.row] ?? 0;
  }

  get clientId(): number {
    return this.c.clientId[this.row] ?? 0;
  }

  get messageId(): number {
    return this.c.messageId[this.row] ?? 0;
  }

  get attempts(): number {
    return this.c.attempts[this.row] ?? 0;
  }

  get line(): number {
    return this.c.line[this.row] ?? 0;
  }

  get httpStatus(): number {
    return this.c.httpStatus[this.row] ?? 0;
  }

  get updatedAt(): number {
    return this.c.updatedAt[this.row] ?? 0;
  }

  get sentAt(): number {
    return this.c.time2[this.row] ?? 0;
  }

  get notBefore(): number {
    return this.c.time2[this.row] ?? 0;
  }

  get deliveredAt(): number {
    return this.c.deliveredAt[this.row] ?? 0;
  }

  get readAt(): number {
    return this.c.readAt[this.row] ?? 0;
  }

  state(): ContactState {
    const s = this.row < this.t.rows ? this.t.state(this.row) : this.other;
    if (s === undefined) throw new Error('no current state: call next() first');
    return s;
  }

  private shapeOf(row: number): number {
    const c = this.c;
    const restAt = c.rest[row] ?? 0;
    let rest = this.restIds[restAt] ?? -1;
    if (rest < 0) {
      rest = this.readId(this.t.rest[restAt] ?? '{}');
      this.restIds[restAt] = rest;
    }
    const key =
      (c.status[row] ?? 0) +
      (c.has[row] ?? 0) * 0x100 +
      (c.bools[row] ?? 0) * 0x100_0000 +
      (c.delivery[row] ?? 0) * 0x1_0000_0000 +
      (c.action[row] ?? 0) * 0x100_0000_0000 +
      (this.viaRead ? (c.via[row] ?? 0) * 0x1_0000_0000_0000 : 0);
    if (this.lastKey[rest] === key) return this.lastShape[rest] ?? -1;
    let byKey = this.shapes.get(rest);
    if (byKey === undefined) {
      byKey = new Map();
      this.shapes.set(rest, byKey);
    }
    let shape = byKey.get(key);
    if (shape === undefined) {
      shape = this.shapeCount++;
      byKey.set(key, shape);
    }
    this.lastKey[rest] = key;
    this.lastShape[rest] = shape;
    return shape;
  }

  private shapeCount = 0;

  /** The id of a `rest` text among those that differ in what the reader reads (its unread fields left out). */
  private readId(text: string): number {
    const read = text === '{}' || !this.unreadKeys.some((key) => text.includes(key)) ? text : (this.withoutLastUnread(text) ?? this.readText(text));
    let id = this.readTexts.get(read);
    if (id === undefined) {
      id = this.readTexts.size;
      this.readTexts.set(read, id);
    }
    return id;
  }

  /** A `rest` text whose only unread field is its last, a text (an in-doubt row's own `attemptAt`), without it; undefined for any other. */
  private withoutLastUnread(text: string): string | undefined {
    const found = LAST_TEXT_FIELD.exec(text);
    if (found === null || !this.unread.has(found[1] ?? '')) return undefined;
    const read = `${text.slice(0, found.index)}}`;
    return this.unreadKeys.some((key) => read.includes(key)) ? undefined : read;
  }

  /** A `rest` text with its unread fields left out (its other fields in their order). */
  private readText(text: string): string {
    const fields = JSON.parse(text) as Record<string, unknown>;
    let dropped = false;
    for (const key of this.unread) {
      if (Object.hasOwn(fields, key)) {
        delete fields[key];
        dropped = true;
      }
    }
    return dropped ? JSON.stringify(fields) : text;
  }
}

/** The last field of a JSON object text, a string, as JSON writes it: `,"key":"…"}` at the end (a quote in a value is escaped, so this is the object's own field). */
const LAST_TEXT_FIELD = /,"(\w+)":"[^"\\]*"\}$/;
