import { isoMs, isoText } from '../time/iso.js';
import type { ContactState } from './types.js';

/**
 * One contact's state as a row of typed-array columns: about 70 bytes a contact, where the object it
 * stands for costs ~330 once a million of them are held. What fits a column goes there (statuses and
 * kinds as codes, times as epoch ms, the platform's numeric ids as numbers); everything else of the
 * state (errors, reasons, follow-up steps, a field added later, an id that is not a plain number)
 * goes to `rest`, one JSON text shared by every row that has the same one. Decoding gives back a state
 * deep-equal to the one encoded, whatever it holds.
 */

export const STATUSES = ['pending', 'sent', 'failed', 'in_doubt', 'skipped', 'deferred'] as const;
export const VIAS = ['start', 'template', 'message'] as const;
export const ACTIONS = ['template', 'text'] as const;
/** A delivery status's code is its index + 1 in the `delivery` column's low bits (0: no delivery in the columns). */
export const DELIVERIES = ['sent', 'delivered', 'read', 'failed'] as const;
/** The `delivery` column's bits besides the status. */
export const DELIVERY_AT = { deliveredAt: 8, readAt: 16 } as const;
/** The status is in `rest` (one this table does not know). */
const STATUS_IN_REST = 255;

/** Which optional fields a row holds (bit per field). */
export const HAS = {
  attempts: 1 << 0,
  line: 1 << 1,
  updatedAt: 1 << 2,
  via: 1 << 3,
  action: 1 << 4,
  conversationId: 1 << 5,
  clientId: 1 << 6,
  messageId: 1 << 7,
  sentAt: 1 << 8,
  notBefore: 1 << 9,
  httpStatus: 1 << 10,
  retryable: 1 << 11,
  mediaLeftOut: 1 << 12,
  mediaOwed: 1 << 13,
  /** `followups` is `{}`. */
  noFollowups: 1 << 14,
} as const;
/** The values of the boolean fields. */
export const TRUE = { retryable: 1, mediaLeftOut: 2, mediaOwed: 4 } as const;

/** The column arrays, in the order a snapshot stores them. */
export interface Columns {
  phone: Float64Array;
  status: Uint8Array;
  has: Uint16Array;
  bools: Uint8Array;
  via: Uint8Array;
  action: Uint8Array;
  attempts: Uint32Array;
  line: Int32Array;
  httpStatus: Uint16Array;
  updatedAt: Float64Array;
  /** sentAt (sent) or notBefore (deferred). */
  time2: Float64Array;
  conversationId: Float64Array;
  clientId: Float64Array;
  messageId: Float64Array;
  /** What `track` last read, when it fits: the status (low 3 bits) and which times follow. */
  delivery: Uint8Array;
  deliveredAt: Float64Array;
  readAt: Float64Array;
  rest: Uint32Array;
  /** The row's tally (state-tally.ts) as counted, 0 while it is not: a count moves from it when the row changes. */
  tally: Uint32Array;
}

export const COLUMN_NAMES = [
  'phone',
  'status',
  'has',
  'bools',
  'via',
  'action',
  'attempts',
  'line',
  'httpStatus',
  'updatedAt',
  'time2',
  'conversationId',
  'clientId',
  'messageId',
  'delivery',
  'deliveredAt',
  'readAt',
  'rest',
  'tally',
] as const satisfies readonly (keyof Columns)[];

export function allocColumns(capacity: number): Columns {
  return {
    phone: new Float64Array(capacity),
    status: new Uint8Array(capacity),
    has: new Uint16Array(capacity),
    bools: new Uint8Array(capacity),
    via: new Uint8Array(capacity),
    action: new Uint8Array(capacity),
    attempts: new Uint32Array(capacity),
    line: new Int32Array(capacity),
    httpStatus: new Uint16Array(capacity),
    updatedAt: new Float64Array(capacity),
    time2: new Float64Array(capacity),
    conversationId: new Float64Array(capacity),
    clientId: new Float64Array(capacity),
    messageId: new Float64Array(capacity),
    delivery: new Uint8Array(capacity),
    deliveredAt: new Float64Array(capacity),
    readAt: new Float64Array(capacity),
    rest: new Uint32Array(capacity),
    tally: new Uint32Array(capacity),
  };
}

/** The same columns with room for `capacity` rows, the first `rows` copied. */
export function growColumns(c: Columns, rows: number, capacity: number): Columns {
  const next = allocColumns(capacity);
  for (const name of COLUMN_NAMES) (next[name] as { set(a: ArrayLike<number>): void }).set(c[name].subarray(0, rows));
  return next;
}

/**
 * The number an E.164 phone (`+` and up to 15 digits, no leading zero) is stored as, or undefined for
 * any other key. Read digit by digit (a run asks it a few times for each row of a million-row list):
 * the same answer as testing /^\+[1-9]\d{0,14}$/ and taking Number of the digits, exact below 2^53.
 */
export function phoneNumber(phone: string): number | undefined {
  const length = phone.length;
  if (length < 2 || length > 16 || phone.charCodeAt(0) !== 0x2b) return undefined;
  let n = phone.charCodeAt(1) - 0x30;
  if (n < 1 || n > 9) return undefined;
  for (let i = 2; i < length; i++) {
    const digit = phone.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return undefined;
    n = n * 10 + digit;
  }
  return n;
}

export function phoneText(n: number): string {
  return `+${n}`;
}

/** Interned JSON texts of the fields that do not fit a column; index 0 is `{}`. */
export class RestTable {
  readonly texts: string[] = ['{}'];
  private readonly index = new Map<string, number>([['{}', 0]]);

  static from(texts: readonly string[]): RestTable {
    const table = new RestTable();
    for (let i = 1; i < texts.length; i++) table.intern(texts[i] ?? '{}');
    return table;
  }

  intern(text: string): number {
    let i = this.index.get(text);
    if (i === undefined) {
      i = this.texts.length;
      this.texts.push(text);
      this.index.set(text, i);
    }
    return i;
  }
}

/** The HAS bit of each field a column may take: the field is out of `rest` exactly when its bit is set. */
const KEY_BITS = new Map<string, number>([
  ['attempts', HAS.attempts],
  ['line', HAS.line],
  ['updatedAt', HAS.updatedAt],
  ['via', HAS.via],
  ['action', HAS.action],
  ['conversationId', HAS.conversationId],
  ['clientId', HAS.clientId],
  ['messageId', HAS.messageId],
  ['sentAt', HAS.sentAt],
  ['notBefore', HAS.notBefore],
  ['httpStatus', HAS.httpStatus],
  ['retryable', HAS.retryable],
  ['mediaLeftOut', HAS.mediaLeftOut],
  ['mediaOwed', HAS.mediaOwed],
  ['followups', HAS.noFollowups],
]);

/**
 * Writes `s` into row `row` (its phone already encoded by the caller). What no column takes goes to
 * `rest` as JSON, in the state's own key order; no copy of the state is made when every field fits.
 */
export function encodeRow(c: Columns, row: number, s: ContactState, rest: RestTable): void {
  const fields = s as unknown as Record<string, unknown>;
  let has = 0;
  let bools = 0;

  const code = STATUSES.indexOf(s.status);
  c.status[row] = code >= 0 ? code : STATUS_IN_REST;

  if (isUint(s.attempts, 0xffff_ffff)) {
    c.attempts[row] = s.attempts;
    has |= HAS.attempts;
  }
  if (isUint(s.line, 0x7fff_ffff)) {
    c.line[row] = s.line;
    has |= HAS.line;
  }
  const updated = isoMs(s.updatedAt);
  if (updated !== undefined) {
    c.updatedAt[row] = updated;
    has |= HAS.updatedAt;
  }
  const via = VIAS.indexOf(fields.via as (typeof VIAS)[number]);
  if (via >= 0) {
    c.via[row] = via;
    has |= HAS.via;
  }
  const action = ACTIONS.indexOf(fields.action as (typeof ACTIONS)[number]);
  if (action >= 0) {
    c.action[row] = action;
    has |= HAS.action;
  }
  for (const key of ['conversationId', 'clientId', 'messageId'] as const) {
    const n = idNumber(fields[key]);
    if (n !== undefined) {
      c[key][row] = n;
      has |= HAS[key];
    }
  }
  for (const key of ['sentAt', 'notBefore'] as const) {
    const ms = isoMs(fields[key]);
    if (ms !== undefined && (has & (HAS.sentAt | HAS.notBefore)) === 0) {
      c.time2[row] = ms;
      has |= HAS[key];
    }
  }
  if (isUint(fields.httpStatus, 0xffff)) {
    c.httpStatus[row] = fields.httpStatus;
    has |= HAS.httpStatus;
  }
  for (const key of ['retryable', 'mediaLeftOut', 'mediaOwed'] as const) {
    const value = fields[key];
    if (typeof value !== 'boolean') continue;
    has |= HAS[key];
    if (value) bools |= TRUE[key];
  }
  c.delivery[row] = 0;
  const delivery = deliveryCode(fields.delivery);
  if (delivery) {
    c.delivery[row] = delivery.code;
    c.deliveredAt[row] = delivery.deliveredAt ?? 0;
    c.readAt[row] = delivery.readAt ?? 0;
  }
  if (isEmptyRecord(fields.followups)) has |= HAS.noFollowups;

  c.has[row] = has;
  c.bools[row] = bools;
  // The fields left over, in the state's order (as a copy with the taken ones deleted would hold them).
  let left: Array<[string, unknown]> | undefined;
  for (const key of Object.keys(fields)) {
    if (key === 'phone' || (key === 'status' && code >= 0) || (key === 'delivery' && delivery)) continue;
    const bit = KEY_BITS.get(key);
    if (bit !== undefined && (has & bit) !== 0) continue;
    (left ??= []).push([key, fields[key]]);
  }
  // fromEntries defines keys as data properties: a "__proto__" field stays a field, as in a spread copy.
  c.rest[row] = rest.intern(left === undefined ? '{}' : JSON.stringify(Object.fromEntries(left)));
}

/** The state of row `row`: a new object each call. */
export function decodeRow(c: Columns, row: number, rest: readonly string[]): ContactState {
  const has = c.has[row] ?? 0;
  const bools = c.bools[row] ?? 0;
  const out: Record<string, unknown> = { phone: phoneText(c.phone[row] ?? 0) };
  const status = c.status[row] ?? STATUS_IN_REST;
  if (status !== STATUS_IN_REST) out.status = STATUSES[status];
  if (has & HAS.attempts) out.attempts = c.attempts[row];
  if (has & HAS.noFollowups) out.followups = {};
  if (has & HAS.line) out.line = c.line[row];
  if (has & HAS.updatedAt) out.updatedAt = isoText(c.updatedAt[row] ?? 0);
  if (has & HAS.via) out.via = VIAS[c.via[row] ?? 0];
  if (has & HAS.action) out.action = ACTIONS[c.action[row] ?? 0];
  if (has & HAS.conversationId) out.conversationId = String(c.conversationId[row]);
  if (has & HAS.clientId) out.clientId = String(c.clientId[row]);
  if (has & HAS.messageId) out.messageId = String(c.messageId[row]);
  if (has & HAS.sentAt) out.sentAt = isoText(c.time2[row] ?? 0);
  if (has & HAS.notBefore) out.notBefore = isoText(c.time2[row] ?? 0);
  if (has & HAS.httpStatus) out.httpStatus = c.httpStatus[row];
  if (has & HAS.retryable) out.retryable = (bools & TRUE.retryable) !== 0;
  if (has & HAS.mediaLeftOut) out.mediaLeftOut = (bools & TRUE.mediaLeftOut) !== 0;
  if (has & HAS.mediaOwed) out.mediaOwed = (bools & TRUE.mediaOwed) !== 0;
  const delivery = c.delivery[row] ?? 0;
  if (delivery !== 0) {
    out.delivery = {
      status: DELIVERIES[(delivery & 7) - 1],
      ...(delivery & DELIVERY_AT.deliveredAt && { deliveredAt: isoText(c.deliveredAt[row] ?? 0) }),
      ...(delivery & DELIVERY_AT.readAt && { readAt: isoText(c.readAt[row] ?? 0) }),
    };
  }
  const text = rest[c.rest[row] ?? 0] ?? '{}';
  if (text !== '{}') for (const [key, value] of Object.entries(JSON.parse(text) as Record<string, unknown>)) if (key !== '__proto__') out[key] = value;
  return out as unknown as ContactState;
}

/** The status of row `row` without decoding it (undefined when it is kept in `rest`). */
export function statusAt(c: Columns, row: number): (typeof STATUSES)[number] | undefined {
  return STATUSES[c.status[row] ?? STATUS_IN_REST];
}

/**
 * The `delivery` column for a state's delivery facts when they fit it: a known status, and at most
 * the delivered and read times (ISO); a failure's code and reason stay in `rest`.
 */
function deliveryCode(value: unknown): { code: number; deliveredAt?: number; readAt?: number } | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  const facts = value as Record<string, unknown>;
  const status = DELIVERIES.indexOf(facts.status as (typeof DELIVERIES)[number]);
  if (status < 0) return undefined;
  let code = status + 1;
  const out: { code: number; deliveredAt?: number; readAt?: number } = { code };
  for (const key of Object.keys(facts)) {
    if (key === 'status') continue;
    if (key !== 'deliveredAt' && key !== 'readAt') return undefined;
    const ms = isoMs(facts[key]);
    if (ms === undefined) return undefined;
    out[key] = ms;
    code |= DELIVERY_AT[key];
  }
  out.code = code;
  return out;
}

function isUint(value: unknown, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max;
}

/** A platform id that is a plain decimal number (no sign, no leading zero, at most 15 digits). */
export function idNumber(value: unknown): number | undefined {
  return typeof value === 'string' && /^(0|[1-9]\d{0,14})$/.test(value) ? Number(value) : undefined;
}

function isEmptyRecord(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const key in value) if (Object.hasOwn(value, key)) return false;
  return Object.getPrototypeOf(value) === Object.prototype;
}

/**
 * A table's rows as its columns hold them, for a reader that goes by column (table-rows.ts, the
 * report-row source): rows 0 … `rows` - 1 in iteration order, then `others`.
 */
export interface ColumnRows {
  readonly columns: Readonly<Columns>;
  readonly rows: number;
  /** The texts the `rest` column points into (above). */
  readonly rest: readonly string[];
  /** Whether row `row` is as the columns hold it (false: deleted, or set last and not encoded yet; ask `state`). */
  encoded(row: number): boolean;
  /** Row `row`'s state, decoded (undefined when deleted). */
  state(row: number): ContactState | undefined;
  /** The states kept whole beside the columns, after the rows. */
  readonly others: Iterable<ContactState>;
}
