/**
 * The common lines of a journal read straight from its bytes into a ColumnFold: no string of the
 * line, no JSON.parse, no event object. A line is taken only when it is byte for byte one of the
 * shapes the run writes (run/deliver.ts, delivery-codec.ts: JSON.stringify's compact text, the keys
 * in the writer's order) with values the fold's fast paths take:
 *
 *   {"t":"attempt","phone":"+P","via":"V","action":"A"[,"line":N][,"content":C],"at":"T"}
 *   {"t":"sent","phone":"+P","via":"V","action":"A","conversation_id":"I"[,"client_id":"I"],"message_id":"I","at":"T"}
 *   {"t":"failed","phone":"+P","via":"V","action":"A","status":H,"retryable":B[,"conversation_id":"I"][,"client_id":"I"],"error":"X","at":"T"}
 *   {"t":"delivery","phone":"+P","status":"S"[,"delivered_at":"T"][,"read_at":"T"],"at":"T"}
 *   {"t":"skipped","phone":"+P","reason":"X"[,"line":N],"at":"T"}
 *
 * P an E.164 number's digits (`phoneNumber`), V and A and S one of VIAS, ACTIONS and DELIVERIES, N a
 * line number of at most 2^31 - 1 and H a status of at most 65535 written plainly, B true or false,
 * X a text of printable ASCII but for the backslash (no escape: JSON.stringify writes it back the
 * same), I a plain id (`idNumber`), T a time `isoMs` reads, C
 * any JSON value (the request's content, which the fold does not keep) of at most CONTENT_DEPTH levels.
 * Anything else (a space, an escape, another key, a value out of range, a line the fold's fast paths
 * would not take for its contact) is left to the caller's general path: JSON.parse, parseEvent and
 * `ColumnFold.apply`, which give the same state for every line this reads (a test folds journals both ways).
 */
import { IsoBytesReader } from '../time/iso.js';
import type { ColumnFold } from './column-fold.js';

/** A text of the line's shape: its bytes, and its whole 4-byte words as little-endian numbers (compared a word at a time). */
interface Literal {
  readonly bytes: Uint8Array;
  readonly words: Uint32Array;
}

const bytes = (text: string): Literal => {
  const b = new TextEncoder().encode(text);
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const words = new Uint32Array(b.length >> 2);
  for (let i = 0; i < words.length; i++) words[i] = view.getUint32(i * 4, true);
  return { bytes: b, words };
};

const ATTEMPT = bytes('{"t":"attempt","phone":"+');
const SENT = bytes('{"t":"sent","phone":"+');
const DELIVERY = bytes('{"t":"delivery","phone":"+');
const FAILED = bytes('{"t":"failed","phone":"+');
const SKIPPED = bytes('{"t":"skipped","phone":"+');
const HTTP_STATUS = bytes(',"status":');
const RETRYABLE = bytes(',"retryable":');
const ERROR = bytes(',"error":"');
const REASON = bytes(',"reason":"');
const VIA = bytes(',"via":"');
const ACTION = bytes(',"action":"');
const LINE = bytes(',"line":');
const CONTENT = bytes(',"content":');
const AT = bytes(',"at":"');
const CONVERSATION = bytes(',"conversation_id":"');
const CLIENT = bytes(',"client_id":"');
const MESSAGE = bytes(',"message_id":"');
const STATUS = bytes(',"status":"');
const DELIVERED = bytes(',"delivered_at":"');
const READ = bytes(',"read_at":"');
/** VIAS, ACTIONS and DELIVERIES (state-columns.ts), each followed by its closing quote, at their indexes. */
const VIA_WORDS = ['start"', 'template"', 'message"'].map(bytes);
const ACTION_WORDS = ['template"', 'text"'].map(bytes);
const DELIVERY_WORDS = ['sent"', 'delivered"', 'read"', 'failed"'].map(bytes);
const BOOLEANS = ['false', 'true'].map(bytes);

/** The deepest content (objects and arrays in each other) read here; a deeper one goes to JSON.parse. */
const CONTENT_DEPTH = 32;
const MAX_LINE = 0x7fff_ffff;
const MAX_HTTP_STATUS = 0xffff;

const QUOTE = 0x22;
const COMMA = 0x2c;
const CLOSE = 0x7d;

/** Reads lines of one journal into `fold`; `take` returns whether it took the line (a contact event), false leaving it untouched. */
export class JournalBytes {
  /** Where the reading is in the current line. */
  private pos = 0;
  /** The value just read. */
  private value = 0;
  /** A request line's phone (its digits), via and action (their words' indexes), read by `request`. */
  private phoneValue = 0;
  private via = 0;
  private action = 0;
  /** The line's end. */
  private end = 0;
  /** The buffer read (the last one given) and a view of it. */
  private buf: Buffer | undefined;
  private view: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(0));
  /** Where the text just read starts. */
  private textStart = 0;
  private readonly times = new IsoBytesReader();

  constructor(private readonly fold: ColumnFold) {}

  /** Folds the line `buf[start, end)` (no newline) when it is one of the shapes above; false otherwise (nothing folded). */
  take(buf: Buffer, start: number, end: number): boolean {
    if (buf !== this.buf) {
      this.buf = buf;
      this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    }
    this.end = end;
    const kind = buf[start + 6];
    if (kind === 0x61) return this.attempt(buf, start, end);
    if (kind === 0x73) return buf[start + 7] === 0x65 ? this.sent(buf, start, end) : this.skipped(buf, start, end);
    if (kind === 0x64) return this.delivery(buf, start, end);
    if (kind === 0x66) return this.failed(buf, start, end);
    return false;
  }

  private failed(buf: Buffer, start: number, end: number): boolean {
    if (!this.request(buf, start, FAILED)) return false;
    const { phoneValue: phone, via, action } = this;
    if (!this.literal(buf, HTTP_STATUS) || !this.uint(buf, MAX_HTTP_STATUS)) return false;
    const status = this.value;
    if (!this.literal(buf, RETRYABLE) || !this.word(buf, BOOLEANS)) return false;
    const retryable = this.value === 1;
    let conversation = -1;
    if (buf[this.pos + 3] === 0x6f && this.literal(buf, CONVERSATION)) {
      if (!this.id(buf)) return false;
      conversation = this.value;
    }
    let client = -1;
    if (buf[this.pos + 3] === 0x6c && this.literal(buf, CLIENT)) {
      if (!this.id(buf)) return false;
      client = this.value;
    }
    if (!this.literal(buf, ERROR) || !this.text(buf, end)) return false;
    const error = this.textStart;
    const errorEnd = this.pos - 1;
    if (!this.time(buf, AT) || !this.closes(buf, end)) return false;
    return this.fold.takeFailed(phone, via, action, status, retryable, conversation, client, `{"error":"${buf.toString('latin1', error, errorEnd)}"}`, this.value);
  }

  private skipped(buf: Buffer, start: number, end: number): boolean {
    this.pos = start;
    if (!this.literal(buf, SKIPPED) || !this.phone(buf)) return false;
    const phone = this.value;
    if (!this.literal(buf, REASON) || !this.text(buf, end)) return false;
    const reason = this.textStart;
    const reasonEnd = this.pos - 1;
    let line = -1;
    if (buf[this.pos + 2] === 0x6c && this.literal(buf, LINE)) {
      if (!this.uint(buf, MAX_LINE)) return false;
      line = this.value;
    }
    if (!this.time(buf, AT) || !this.closes(buf, end)) return false;
    return this.fold.takeSkipped(phone, `{"reason":"${buf.toString('latin1', reason, reasonEnd)}"}`, line, this.value);
  }

  private attempt(buf: Uint8Array, start: number, end: number): boolean {
    if (!this.request(buf, start, ATTEMPT)) return false;
    const { phoneValue: phone, via, action } = this;
    let line = -1;
    if (buf[this.pos + 2] === 0x6c && this.literal(buf, LINE)) {
      if (!this.uint(buf, MAX_LINE)) return false;
      line = this.value;
    }
    if (buf[this.pos + 2] === 0x63 && this.literal(buf, CONTENT)) {
      const after = skipValue(buf, this.pos, end, CONTENT_DEPTH);
      if (after < 0) return false;
      this.pos = after;
    }
    if (!this.time(buf, AT) || !this.closes(buf, end)) return false;
    return this.fold.takeAttempt(phone, via, action, line, this.value);
  }

  private sent(buf: Uint8Array, start: number, end: number): boolean {
    if (!this.request(buf, start, SENT)) return false;
    const { phoneValue: phone, via, action } = this;
    if (!this.literal(buf, CONVERSATION) || !this.id(buf)) return false;
    const conversation = this.value;
    let client = -1;
    if (buf[this.pos + 3] === 0x6c && this.literal(buf, CLIENT)) {
      if (!this.id(buf)) return false;
      client = this.value;
    }
    if (!this.literal(buf, MESSAGE) || !this.id(buf)) return false;
    const message = this.value;
    if (!this.time(buf, AT) || !this.closes(buf, end)) return false;
    return this.fold.takeSent(phone, via, action, conversation, client, message, this.value);
  }

  private delivery(buf: Uint8Array, start: number, end: number): boolean {
    this.pos = start;
    if (!this.literal(buf, DELIVERY) || !this.phone(buf)) return false;
    const phone = this.value;
    if (!this.literal(buf, STATUS) || !this.word(buf, DELIVERY_WORDS)) return false;
    const status = this.value;
    let delivered = -1;
    if (buf[this.pos + 2] === 0x64) {
      if (!this.time(buf, DELIVERED)) return false;
      delivered = this.value;
    }
    let read = -1;
    if (buf[this.pos + 2] === 0x72) {
      if (!this.time(buf, READ)) return false;
      read = this.value;
    }
    if (!this.time(buf, AT) || !this.closes(buf, end)) return false;
    return this.fold.takeDelivery(phone, status, delivered, read, this.value);
  }

  /** A request's line up to its action (`{"t":…,"phone":"+…","via":…,"action":…`): the three in `phone`, `via`, `action`. */
  private request(buf: Uint8Array, start: number, kind: Literal): boolean {
    this.pos = start;
    if (!this.literal(buf, kind) || !this.phone(buf)) return false;
    this.phoneValue = this.value;
    if (!this.literal(buf, VIA) || !this.word(buf, VIA_WORDS)) return false;
    this.via = this.value;
    if (!this.literal(buf, ACTION) || !this.word(buf, ACTION_WORDS)) return false;
    this.action = this.value;
    return true;
  }

  /** Whether `text` is at the position, within the line (then passed). */
  private literal(buf: Uint8Array, text: Literal): boolean {
    const pos = this.pos;
    const bytes = text.bytes;
    if (pos + bytes.length > this.end) return false;
    const words = text.words;
    const view = this.view;
    for (let i = 0; i < words.length; i++) if (view.getUint32(pos + i * 4, true) !== words[i]) return false;
    for (let i = words.length * 4; i < bytes.length; i++) if (buf[pos + i] !== bytes[i]) return false;
    this.pos = pos + bytes.length;
    return true;
  }

  /** One of `words` (each with its closing quote): its index as the value. */
  private word(buf: Uint8Array, words: readonly Literal[]): boolean {
    for (let w = 0; w < words.length; w++) {
      if (this.literal(buf, words[w] as Literal)) {
        this.value = w;
        return true;
      }
    }
    return false;
  }

  /** An E.164 number's digits and the closing quote (`+` read before): `phoneNumber` of the text. */
  private phone(buf: Uint8Array): boolean {
    let pos = this.pos;
    const first = (buf[pos] ?? 0) - 48;
    if (first < 1 || first > 9) return false;
    let n = first;
    for (pos += 1; pos < this.pos + 15; pos++) {
      const d = (buf[pos] ?? 0) - 48;
      if (d < 0 || d > 9) break;
      n = n * 10 + d;
    }
    if (buf[pos] !== QUOTE) return false;
    this.pos = pos + 1;
    this.value = n;
    return true;
  }

  /** A quoted plain id (`0` or up to 15 digits not starting with 0): `idNumber` of the text. */
  private id(buf: Uint8Array): boolean {
    const pos = this.digits(buf, 15);
    if (pos < 0 || buf[pos] !== QUOTE) return false;
    this.pos = pos + 1;
    return true;
  }

  /** A JSON integer written plainly (`0` or digits not starting with 0) of at most `max` (up to 2^31 - 1), followed by a comma. */
  private uint(buf: Uint8Array, max: number): boolean {
    const pos = this.digits(buf, 10);
    if (pos < 0 || buf[pos] !== COMMA || this.value > max) return false;
    this.pos = pos;
    return true;
  }

  /** `0`, or up to `most` digits not starting with 0, at the position: their number in `value`, and where they end (-1: no digit there). */
  private digits(buf: Uint8Array, most: number): number {
    let pos = this.pos;
    const first = (buf[pos] ?? 0) - 48;
    if (first < 0 || first > 9) return -1;
    let n = first;
    pos += 1;
    if (first !== 0) {
      for (; pos < this.pos + most; pos++) {
        const d = (buf[pos] ?? 0) - 48;
        if (d < 0 || d > 9) break;
        n = n * 10 + d;
      }
    }
    this.value = n;
    return pos;
  }

  /** A text of printable ASCII but the backslash and its closing quote (its opening one read before): it starts at textStart. */
  private text(buf: Uint8Array, end: number): boolean {
    this.textStart = this.pos;
    for (let pos = this.pos; pos < end; pos++) {
      const b = buf[pos] ?? 0;
      if (b === QUOTE) {
        this.pos = pos + 1;
        return true;
      }
      if (b < 0x20 || b > 0x7e || b === 0x5c) return false;
    }
    return false;
  }

  /** `key` (its opening quote included), a time `isoMsBytes` reads (by IsoBytesReader) and its closing quote. */
  private time(buf: Uint8Array, key: Literal): boolean {
    if (!this.literal(buf, key)) return false;
    const ms = this.times.read(buf, this.pos);
    if (ms < 0 || buf[this.pos + 24] !== QUOTE) return false;
    this.pos += 25;
    this.value = ms;
    return true;
  }

  /** The object's closing brace, ending the line. */
  private closes(buf: Uint8Array, end: number): boolean {
    return buf[this.pos] === CLOSE && this.pos + 1 === end;
  }
}

/**
 * The position after the JSON value at `pos` (no whitespace before it), or -1 when there is not one
 * JSON.parse reads there within `end` and `depth` levels of objects and arrays, whitespace between
 * its tokens as JSON allows. Strings are read as bytes: any byte from 0x20 up but the quote and the
 * backslash stands for itself (bytes of UTF-8, valid or not, never stand for a quote or a backslash,
 * and JSON.parse takes whatever text they decode to), an escape is one of JSON's.
 */
export function skipValue(buf: Uint8Array, pos: number, end: number, depth: number): number {
  if (pos >= end) return -1;
  const b = buf[pos];
  if (b === QUOTE) return skipString(buf, pos, end);
  if (b === 0x7b || b === 0x5b) {
    if (depth === 0) return -1;
    const object = b === 0x7b;
    const close = object ? CLOSE : 0x5d;
    pos = skipSpace(buf, pos + 1, end);
    if (buf[pos] === close && pos < end) return pos + 1;
    for (;;) {
      if (object) {
        if (buf[pos] !== QUOTE) return -1;
        pos = skipString(buf, pos, end);
        if (pos < 0) return -1;
        pos = skipSpace(buf, pos, end);
        if (pos >= end || buf[pos] !== 0x3a) return -1;
        pos = skipSpace(buf, pos + 1, end);
      }
      pos = skipValue(buf, pos, end, depth - 1);
      if (pos < 0) return -1;
      pos = skipSpace(buf, pos, end);
      if (pos >= end) return -1;
      if (buf[pos] === close) return pos + 1;
      if (buf[pos] !== COMMA) return -1;
      pos = skipSpace(buf, pos + 1, end);
    }
  }
  if (b === 0x74) return skipWord(buf, pos, end, TRUE_BYTES);
  if (b === 0x66) return skipWord(buf, pos, end, FALSE_BYTES);
  if (b === 0x6e) return skipWord(buf, pos, end, NULL_BYTES);
  return skipNumber(buf, pos, end);
}

const TRUE_BYTES = bytes('true').bytes;
const FALSE_BYTES = bytes('false').bytes;
const NULL_BYTES = bytes('null').bytes;
const HEX = (() => {
  const hex = new Uint8Array(256);
  for (const c of '0123456789abcdefABCDEF') hex[c.charCodeAt(0)] = 1;
  return hex;
})();

function skipSpace(buf: Uint8Array, pos: number, end: number): number {
  while (pos < end) {
    const b = buf[pos];
    if (b !== 0x20 && b !== 0x09 && b !== 0x0d && b !== 0x0a) break;
    pos += 1;
  }
  return pos;
}

function skipWord(buf: Uint8Array, pos: number, end: number, word: Uint8Array): number {
  if (pos + word.length > end) return -1;
  for (let i = 0; i < word.length; i++) if (buf[pos + i] !== word[i]) return -1;
  return pos + word.length;
}

/** A string from its opening quote at `pos`: the position after its closing quote, or -1. */
function skipString(buf: Uint8Array, pos: number, end: number): number {
  for (pos += 1; pos < end; pos++) {
    const b = buf[pos] ?? 0;
    if (b === QUOTE) return pos + 1;
    if (b < 0x20) return -1;
    if (b === 0x5c) {
      const e = buf[pos + 1];
      if (e === 0x75) {
        if (pos + 6 > end) return -1;
        for (let i = 2; i < 6; i++) if (HEX[buf[pos + i] ?? 0] !== 1) return -1;
        pos += 5;
      } else if (e === QUOTE || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) {
        pos += 1;
      } else {
        return -1;
      }
    }
  }
  return -1;
}

/** A JSON number (`-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`) from `pos`: the position after it, or -1. */
function skipNumber(buf: Uint8Array, pos: number, end: number): number {
  const digit = (p: number) => p < end && (buf[p] ?? 0) >= 0x30 && (buf[p] ?? 0) <= 0x39;
  if (buf[pos] === 0x2d) pos += 1;
  if (!digit(pos)) return -1;
  if (buf[pos] === 0x30) pos += 1;
  else while (digit(pos)) pos += 1;
  if (pos < end && buf[pos] === 0x2e) {
    pos += 1;
    if (!digit(pos)) return -1;
    while (digit(pos)) pos += 1;
  }
  if (pos < end && (buf[pos] === 0x65 || buf[pos] === 0x45)) {
    pos += 1;
    if (pos < end && (buf[pos] === 0x2b || buf[pos] === 0x2d)) pos += 1;
    if (!digit(pos)) return -1;
    while (digit(pos)) pos += 1;
  }
  return pos;
}
