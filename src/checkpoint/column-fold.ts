import { NO_ANSWER, nextState } from './apply-event.js';
import { isoMs, isoText } from '../time/iso.js';
import { PhoneIndex } from './phone-index.js';
import { ACTIONS, allocColumns, decodeRow, DELIVERIES, DELIVERY_AT, encodeRow, growColumns, HAS, idNumber, phoneNumber, RestTable, STATUSES, TRUE, VIAS, type Columns } from './state-columns.js';
import { StateTable } from './state-table.js';
import { Tallies, tallyKey } from './state-tally.js';
import type { ContactEvent, ContactState } from './types.js';

/**
 * A whole journal folded straight into a state table's columns (opening a job with no snapshot):
 * the common events of a run (an attempt of a new contact, its sent or failed outcome, a skip, a
 * delivery read of a sent one) are written into the row as `encodeRow` would write the state
 * `nextState` gives, with no state object per event; every other event (and every event of a row
 * that met one) goes through `nextState` itself on the decoded row. The states are those of the one
 * reducer (a test folds every kind of event both ways and compares). Pure.
 */

/** Rows whose columns the fast path knows the state of. */
const KIND_OTHER = 0;
/** In doubt after its only attempt: `{ phone, attempts: 1, followups: {}, line?, updatedAt, status: 'in_doubt', via, action, error: NO_ANSWER, attemptAt }`, its `rest` not written yet. */
const KIND_ATTEMPTED = 1;
/** Sent once after that attempt (no other field than the sent's own, its delivery and its `line`). */
const KIND_SENT = 2;

/** States held as objects (rows that met a rare event), the last ones first: encoded when more are held. */
const OBJECTS_MAX = 4096;

const STATUS = { sent: STATUSES.indexOf('sent'), failed: STATUSES.indexOf('failed'), in_doubt: STATUSES.indexOf('in_doubt'), skipped: STATUSES.indexOf('skipped') };
const DELIVERY_RANK = [0, 1, 2, 2] as const;

/** `content` (what the request carried) is not folded into the state. */
const ATTEMPT_KEYS = new Set(['t', 'phone', 'via', 'action', 'line', 'content', 'at']);
const SENT_KEYS = new Set(['t', 'phone', 'via', 'action', 'conversation_id', 'client_id', 'message_id', 'at']);
const FAILED_KEYS = new Set(['t', 'phone', 'via', 'action', 'status', 'retryable', 'conversation_id', 'client_id', 'error', 'at']);
const SKIPPED_KEYS = new Set(['t', 'phone', 'reason', 'line', 'at']);
const DELIVERY_KEYS = new Set(['t', 'phone', 'status', 'delivered_at', 'read_at', 'at']);

export class ColumnFold {
  private columns: Columns;
  private capacity: number;
  private rows = 0;
  private kind: Uint8Array;
  private readonly index: PhoneIndex;
  private readonly rest = new RestTable();
  private readonly objects = new Map<number, ContactState>();
  private readonly others = new Map<string, ContactState>();
  /** The phone last looked up or added (-1: none yet) and its row. */
  private lastPhone = -1;
  private lastRow = -1;

  constructor(capacity = 1 << 16) {
    this.capacity = Math.max(16, capacity);
    this.columns = allocColumns(this.capacity);
    this.kind = new Uint8Array(this.capacity);
    this.index = new PhoneIndex(this.capacity);
  }

  apply(event: ContactEvent): void {
    const n = phoneNumber(event.phone);
    if (n === undefined) {
      this.others.set(event.phone, nextState(this.others.get(event.phone), event));
      return;
    }
    let row = this.rowOf(n);
    const fresh = row < 0;
    if (fresh) {
      row = this.newRow(n);
      if (this.fastNew(row, event)) return;
    } else if (!this.objects.has(row)) {
      const kind = this.kind[row];
      if (kind === KIND_ATTEMPTED ? this.fastOutcome(row, event) : kind === KIND_SENT && this.fastDelivery(row, event)) return;
    }
    this.general(row, fresh, event);
  }

  /**
   * The events of the fast paths as plain values, for a reader that has them without an event object
   * (journal-bytes.ts reads them straight from a journal's bytes). Each returns whether it took the
   * event: false (nothing changed then) when `apply` would not take it by its fast path, and the
   * caller hands the event to `apply`. `n` is the phone's number (`phoneNumber`), `via`, `action` and
   * `status` indexes of VIAS, ACTIONS and DELIVERIES, times epoch ms (`isoMs`), ids numbers (`idNumber`);
   * -1 stands for a field that is absent.
   */
  takeAttempt(n: number, via: number, action: number, line: number, at: number): boolean {
    if (this.rowOf(n) >= 0) return false;
    this.writeAttempt(this.newRow(n), via, action, line, at);
    return true;
  }

  /** A `sent` (see takeAttempt). */
  takeSent(n: number, via: number, action: number, conversation: number, client: number, message: number, at: number): boolean {
    const row = this.rowOf(n);
    if (row < 0 || this.kind[row] !== KIND_ATTEMPTED || this.objects.has(row)) return false;
    this.writeSent(row, via, action, conversation, client, message, at);
    return true;
  }

  /** A `failed` (see takeAttempt): `error` the text its `rest` holds, `JSON.stringify({ error })`. */
  takeFailed(n: number, via: number, action: number, status: number, retryable: boolean, conversation: number, client: number, error: string, at: number): boolean {
    const row = this.rowOf(n);
    if (row < 0 || this.kind[row] !== KIND_ATTEMPTED || this.objects.has(row)) return false;
    this.writeFailed(row, via, action, status, retryable, conversation, client, error, at);
    return true;
  }

  /** A `skipped` (see takeAttempt): `reason` the text its `rest` holds, `JSON.stringify({ reason })`. */
  takeSkipped(n: number, reason: string, line: number, at: number): boolean {
    if (this.rowOf(n) >= 0) return false;
    this.writeSkipped(this.newRow(n), reason, line, at);
    return true;
  }

  /** A `delivery` (see takeAttempt). */
  takeDelivery(n: number, status: number, delivered: number, read: number, at: number): boolean {
    const row = this.rowOf(n);
    if (row < 0 || this.kind[row] !== KIND_SENT || this.objects.has(row)) return false;
    this.writeDelivery(row, status, delivered, read, at);
    return true;
  }

  /** The table of every state folded (its counters counted). */
  table(): StateTable {
    this.flush(0);
    for (let row = 0; row < this.rows; row++) if (this.kind[row] === KIND_ATTEMPTED) this.settle(row);
    const tallies = new Tallies();
    const c = this.columns;
    // The tally of a row without notBefore is a function of these columns: one number of them (rest's
    // 32 bits above status's 8, action's 8, the 2 HAS bits and the delivery status's 3: 53 bits in all).
    const memo = new Map<number, number>();
    for (let row = 0; row < this.rows; row++) {
      const has = c.has[row] ?? 0;
      const small = ((c.status[row] ?? 0) << 13) | ((c.action[row] ?? 0) << 5) | ((has & HAS.action) === 0 ? 0 : 16) | ((has & HAS.noFollowups) === 0 ? 0 : 8) | ((c.delivery[row] ?? 0) & 7);
      const key = (has & HAS.notBefore) === 0 ? (c.rest[row] ?? 0) * 0x20_0000 + small : undefined;
      let id = key === undefined ? undefined : memo.get(key);
      if (id === undefined) {
        id = tallies.intern(tallyKey(decodeRow(c, row, this.rest.texts)));
        if (key !== undefined) memo.set(key, id);
      }
      c.tally[row] = id;
      tallies.move(0, id);
    }
    // The fold's index is of these very rows: the table takes it rather than building its own on first use.
    return StateTable.fromImage(
      {
        rows: this.rows,
        columns: c,
        rest: this.rest.texts,
        others: [...this.others],
        tallies: { keys: tallies.keys, counts: tallies.counts },
      },
      this.index,
    );
  }

  /** The first event of a phone: an attempt or a skip written straight into its new row. */
  private fastNew(row: number, e: ContactEvent): boolean {
    if (e.t === 'attempt') {
      if (!only(e, ATTEMPT_KEYS)) return false;
      const via = VIAS.indexOf(e.via);
      const action = ACTIONS.indexOf(e.action);
      const at = isoMs(e.at);
      if (via < 0 || action < 0 || at === undefined || (e.line !== undefined && !isUint(e.line, 0x7fff_ffff))) return false;
      this.writeAttempt(row, via, action, e.line ?? -1, at);
      return true;
    }
    if (e.t === 'skipped') {
      const at = isoMs(e.at);
      if (!only(e, SKIPPED_KEYS) || typeof e.reason !== 'string' || at === undefined || (e.line !== undefined && !isUint(e.line, 0x7fff_ffff))) return false;
      this.writeSkipped(row, JSON.stringify({ reason: e.reason }), e.line ?? -1, at);
      return true;
    }
    return false;
  }

  /** The state of a new row skipped (`line` -1: none). */
  private writeSkipped(row: number, reason: string, line: number, at: number): void {
    const c = this.columns;
    c.status[row] = STATUS.skipped;
    c.attempts[row] = 0;
    c.updatedAt[row] = at;
    let has = HAS.attempts | HAS.updatedAt | HAS.noFollowups;
    if (line >= 0) {
      c.line[row] = line;
      has |= HAS.line;
    }
    c.has[row] = has;
    c.rest[row] = this.rest.intern(reason);
    this.kind[row] = KIND_OTHER;
  }

  /** The state of a new row's first attempt (`line` -1: none). */
  private writeAttempt(row: number, via: number, action: number, line: number, at: number): void {
    const c = this.columns;
    c.status[row] = STATUS.in_doubt;
    c.attempts[row] = 1;
    c.updatedAt[row] = at;
    c.via[row] = via;
    c.action[row] = action;
    let has = HAS.attempts | HAS.updatedAt | HAS.via | HAS.action | HAS.noFollowups;
    if (line >= 0) {
      c.line[row] = line;
      has |= HAS.line;
    }
    c.has[row] = has;
    // Its `rest` (the error and attemptAt, one text per contact) is interned only if it stays in doubt: see settle.
    c.rest[row] = 0;
    this.kind[row] = KIND_ATTEMPTED;
  }

  /** A `sent` or `failed` answering the only attempt of a row. */
  private fastOutcome(row: number, e: ContactEvent): boolean {
    if (e.t !== 'sent' && e.t !== 'failed') return false;
    if (!only(e, e.t === 'sent' ? SENT_KEYS : FAILED_KEYS)) return false;
    if (e.t === 'sent') return this.sentEvent(row, e);
    const via = VIAS.indexOf(e.via);
    const action = ACTIONS.indexOf(e.action);
    const at = isoMs(e.at);
    const conversation = e.conversation_id === undefined ? -1 : idNumber(e.conversation_id);
    const client = e.client_id === undefined ? -1 : idNumber(e.client_id);
    if (via < 0 || action < 0 || at === undefined || conversation === undefined || client === undefined) return false;
    if (!isUint(e.status, 0xffff) || typeof e.retryable !== 'boolean' || typeof e.error !== 'string') return false;
    this.writeFailed(row, via, action, e.status, e.retryable, conversation, client, JSON.stringify({ error: e.error }), at);
    return true;
  }

  /** The state of a row failed after its only attempt (`conversation`, `client` -1: none). */
  private writeFailed(row: number, via: number, action: number, status: number, retryable: boolean, conversation: number, client: number, error: string, at: number): void {
    const c = this.columns;
    let has = ((c.has[row] ?? 0) & HAS.line) | HAS.attempts | HAS.updatedAt | HAS.via | HAS.action | HAS.noFollowups | HAS.httpStatus | HAS.retryable;
    c.status[row] = STATUS.failed;
    c.httpStatus[row] = status;
    c.bools[row] = retryable ? TRUE.retryable : 0;
    c.rest[row] = this.rest.intern(error);
    this.kind[row] = KIND_OTHER;
    if (conversation >= 0) {
      c.conversationId[row] = conversation;
      has |= HAS.conversationId;
    }
    if (client >= 0) {
      c.clientId[row] = client;
      has |= HAS.clientId;
    }
    c.updatedAt[row] = at;
    c.via[row] = via;
    c.action[row] = action;
    c.has[row] = has;
  }

  /** A `sent` answering the only attempt of a row. */
  private sentEvent(row: number, e: Extract<ContactEvent, { t: 'sent' }>): boolean {
    const via = VIAS.indexOf(e.via);
    const action = ACTIONS.indexOf(e.action);
    const at = isoMs(e.at);
    const conversation = idNumber(e.conversation_id);
    const client = e.client_id === undefined ? -1 : idNumber(e.client_id);
    const message = idNumber(e.message_id);
    if (via < 0 || action < 0 || at === undefined || conversation === undefined || client === undefined || message === undefined) return false;
    this.writeSent(row, via, action, conversation, client, message, at);
    return true;
  }

  /** The state of a row sent after its only attempt (`client` -1: none). */
  private writeSent(row: number, via: number, action: number, conversation: number, client: number, message: number, at: number): void {
    const c = this.columns;
    let has = ((c.has[row] ?? 0) & HAS.line) | HAS.attempts | HAS.updatedAt | HAS.via | HAS.action | HAS.noFollowups | HAS.messageId | HAS.sentAt | HAS.conversationId;
    c.status[row] = STATUS.sent;
    c.messageId[row] = message;
    c.time2[row] = at;
    c.rest[row] = 0;
    this.kind[row] = KIND_SENT;
    c.conversationId[row] = conversation;
    if (client >= 0) {
      c.clientId[row] = client;
      has |= HAS.clientId;
    }
    c.updatedAt[row] = at;
    c.via[row] = via;
    c.action[row] = action;
    c.has[row] = has;
  }

  /** A delivery read of a sent row. */
  private fastDelivery(row: number, e: ContactEvent): boolean {
    if (e.t !== 'delivery' || !only(e, DELIVERY_KEYS)) return false;
    const status = DELIVERIES.indexOf(e.status);
    const at = isoMs(e.at);
    const delivered = e.delivered_at === undefined ? -1 : isoMs(e.delivered_at);
    const read = e.read_at === undefined ? -1 : isoMs(e.read_at);
    if (status < 0 || at === undefined || delivered === undefined || read === undefined) return false;
    this.writeDelivery(row, status, delivered, read, at);
    return true;
  }

  /** A delivery read written into a sent row (apply-delivery.ts's `deliveryAfter` on the delivery column; -1: a time absent). */
  private writeDelivery(row: number, status: number, delivered: number, read: number, at: number): void {
    const c = this.columns;
    c.updatedAt[row] = at;
    const before = c.delivery[row] ?? 0;
    if (before !== 0) {
      const was = (before & 7) - 1;
      const rank = DELIVERY_RANK[status] ?? 0;
      const rankBefore = DELIVERY_RANK[was as 0 | 1 | 2 | 3] ?? 0;
      // A status that would go back (or sideways, read ↔ failed) is ignored.
      if (rank < rankBefore || (rank === rankBefore && status !== was)) return;
    }
    let code = (status + 1) | (before & (DELIVERY_AT.deliveredAt | DELIVERY_AT.readAt));
    if (delivered >= 0) {
      c.deliveredAt[row] = delivered;
      code |= DELIVERY_AT.deliveredAt;
    }
    if (read >= 0) {
      c.readAt[row] = read;
      code |= DELIVERY_AT.readAt;
    }
    if (before === 0) {
      if (delivered < 0) c.deliveredAt[row] = 0;
      if (read < 0) c.readAt[row] = 0;
    }
    c.delivery[row] = code;
  }

  /** Any event through the one reducer, on the row's state as an object (kept while more events of it may come). */
  private general(row: number, fresh: boolean, event: ContactEvent): void {
    if (this.kind[row] === KIND_ATTEMPTED) this.settle(row);
    const prior = this.objects.get(row) ?? (fresh ? undefined : decodeRow(this.columns, row, this.rest.texts));
    this.objects.delete(row);
    this.objects.set(row, nextState(prior, event));
    this.kind[row] = KIND_OTHER;
    if (this.objects.size > OBJECTS_MAX) this.flush(OBJECTS_MAX / 2);
  }

  /** Writes the `rest` of a row in doubt after its only attempt (attemptAt is its updatedAt). */
  private settle(row: number): void {
    this.columns.rest[row] = this.rest.intern(JSON.stringify({ error: NO_ANSWER, attemptAt: isoText(this.columns.updatedAt[row] ?? 0) }));
    this.kind[row] = KIND_OTHER;
  }

  /** Encodes the oldest states held as objects until at most `keep` are left. */
  private flush(keep: number): void {
    for (const [row, state] of this.objects) {
      if (this.objects.size <= keep) return;
      encodeRow(this.columns, row, state, this.rest);
      this.objects.delete(row);
    }
  }

  /** The row of the phone `n`, or -1: the last one asked for or made is kept (a contact's events mostly come together). */
  private rowOf(n: number): number {
    if (n === this.lastPhone) return this.lastRow;
    const row = this.index.get(n);
    if (row >= 0) {
      this.lastPhone = n;
      this.lastRow = row;
    }
    return row;
  }

  /** A new row for the phone `n`. */
  private newRow(n: number): number {
    if (this.rows === this.capacity) this.grow();
    const row = this.rows++;
    this.columns.phone[row] = n;
    this.index.set(n, row);
    this.lastPhone = n;
    this.lastRow = row;
    return row;
  }

  private grow(): void {
    this.capacity *= 2;
    this.columns = growColumns(this.columns, this.rows, this.capacity);
    const kind = new Uint8Array(this.capacity);
    kind.set(this.kind.subarray(0, this.rows));
    this.kind = kind;
  }
}

/** Whether every own key of `event` is one of `keys` (a field the fast path does not know sends the event to the reducer). */
function only(event: object, keys: ReadonlySet<string>): boolean {
  for (const key in event) if (!keys.has(key)) return false;
  return true;
}

function isUint(value: unknown, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max;
}
