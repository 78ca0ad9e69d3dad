import { HELD, type ContactState, type ContactStates, type ListingColumns, type StateRows } from '../checkpoint/index.js';
import { csvCell, csvRecord } from './csv-cell.js';
import { byteWords, copyWords, putWords, type ByteWords } from './byte-words.js';
import { ISO_BYTES, IsoWriter, isoFits } from '../time/iso.js';
import { csvOptions, reportColumns, type ReportLayout } from './report-layout.js';
import { contactRow, type ReportRow, type RowSource } from './report-rows.js';
import { cell, csvLayout, REPORT_COLUMNS } from './report.js';

/**
 * report.csv written from the store's report-row source (`ContactStates.reportRows`, checkpoint/state-rows.ts)
 * and the listing's arrays straight to bytes, the same bytes as the rows of `contactRow` through
 * `writeReport`, with no state, row or cells made per contact. Rows of one shape (the source's: states
 * that differ only in their own values) share every cell but their own values (phone, ids, attempts,
 * line, times, HTTP status), the replies and the list's: such a kind's row is made once the general way
 * (its first state read whole), its other cells kept as text, and each row then fills in its own. Rows
 * the source gives no shape (-1) and the pending rows go the general way.
 */

/** Where each row's own cells come from. */
const enum Field {
  Phone,
  ConversationId,
  ClientId,
  MessageId,
  Attempts,
  Line,
  UpdatedAt,
  SentAt,
  NotBefore,
  HttpStatus,
  DeliveredAt,
  ReadAt,
  RepliedAt,
  Name,
  PhoneAsWritten,
  SourceFile,
  SourceLine,
  Variant,
  Arm,
}

/**
 * Fields of a state no cell of its row reads (report-rows.ts): states that differ only in them may
 * share a shape (an in-doubt row's `attemptAt` is its own).
 */
const UNREAD = ['attemptAt', 'zone', 'via', 'retryable', 'mediaOwed'] as const;
/** Kinds kept as text at most (a state whose `rest` is its own, such as a unique error, would make one per row). */
const MAX_KINDS = 4096;

/** A kind's row: its fixed text between the fields a row fills in (`texts` has one more entry than `fields`). */
interface Kind {
  texts: ByteWords[];
  fields: Field[];
}

export interface ColumnCsvSource {
  /** The list's row of the state in column row order, by its phone's number: its position in `listed`, or the row itself. */
  byNumber(n: number): number | RowSource | undefined;
  /** The list's row of a phone (a state the columns do not hold). */
  get(phone: string): RowSource | undefined;
}

export interface ColumnCsvInput {
  sources: ColumnCsvSource;
  /** The listing's arrays (ContactListing.columns), which `byNumber`'s positions point into. */
  listed: ListingColumns;
  replies: ReadonlyMap<string, string>;
  /** The list's contacts with no state, as rows: written after the states' (the general way). */
  pending: Iterable<ReportRow>;
  layout: ReportLayout;
  /** An experiment's arm of a phone (the `arm` column), when the layout has it. */
  armOf?: (phone: string) => string | undefined;
  /** Told each row written. */
  count?: () => void;
}

/**
 * Whether the layout can be written from the columns: without the list's own columns (`report --columns`),
 * and not the spreadsheet form (its phones and ids are written as text: report.ts).
 */
export function columnCsvFits(layout: ReportLayout): boolean {
  return (layout.sourceColumns ?? []).length === 0 && layout.excel !== true;
}

/** The CSV bytes, in pieces of about 256 KB, each valid until the next is asked for (writeFileAtomic writes each first): the header, the states' rows, then the pending ones. */
export function* columnCsvChunks(states: Pick<ContactStates, 'reportRows'>, input: ColumnCsvInput): Generator<Uint8Array> {
  const rows = states.reportRows({ unread: UNREAD });
  const { sources, replies, pending, layout, listed } = input;
  const count = input.count ?? (() => undefined);
  const armOf = input.armOf ?? (() => undefined);
  const { delimiter, bom } = csvOptions(layout);
  const columns = reportColumns(REPORT_COLUMNS, layout);
  const { header, cellsOf } = csvLayout(layout);
  const general = (row: ReportRow): string => {
    const arm = layout.arms === true ? armOf(row.phone) : undefined;
    if (arm !== undefined) row.arm = arm;
    return csvRecord(cellsOf(row), delimiter);
  };
  const kinds: Array<Kind | null> = [];
  let kindCount = 0;
  const out = new CsvBytes(delimiter);
  out.text(`${bom ? '\uFEFF' : ''}${csvRecord(header, delimiter)}`);
  // Only an experiment's arm or a reply needs a row's phone as text.
  const phoneText = layout.arms === true || replies.size > 0;
  while (rows.next()) {
    const shape = rows.shape;
    if (shape < 0) {
      const s = rows.state();
      out.text(general(contactRow(s.phone, s, sources.get(s.phone), replies.get(s.phone))));
    } else {
      let kind = kinds[shape];
      if (kind === undefined) {
        const s = rows.state();
        kind = kindCount < MAX_KINDS ? kindOf(s, rows.held, columns, cellsOf(contactRow(s.phone, s, undefined, undefined)), delimiter) : null;
        kinds[shape] = kind;
        kindCount += 1;
      }
      const n = rows.phone;
      const found = sources.byNumber(n);
      const at = typeof found === 'number' ? found : -1;
      const source = typeof found === 'number' ? undefined : found;
      if (kind === null) {
        const s = rows.state();
        out.text(general(contactRow(s.phone, s, at >= 0 ? listedSource(listed, at) : source, replies.get(s.phone))));
      } else {
        const phone = phoneText ? `+${n}` : '';
        const { texts, fields } = kind;
        out.words(texts[0] as ByteWords);
        for (let i = 0; i < fields.length; i++) {
          const field = fields[i] ?? Field.Phone;
          // The ids and times, the most of a row's own cells, without a call per cell.
          if (field === Field.ConversationId) out.uint(rows.conversationId);
          else if (field === Field.ClientId) out.uint(rows.clientId);
          else if (field === Field.MessageId) out.uint(rows.messageId);
          else if (field === Field.UpdatedAt) out.iso(rows.updatedAt, out.updatedAt);
          else if (field === Field.SentAt) out.iso(rows.sentAt, out.time2);
          else if (at >= 0 && field >= Field.Name && field <= Field.Variant) out.listed(listed, at, field);
          else putField(out, field, rows, source, phone, replies, armOf);
          out.words(texts[i + 1] as ByteWords);
        }
      }
    }
    count();
    if (out.ready()) yield out.take();
  }
  for (const r of pending) {
    out.text(general(r));
    count();
    if (out.ready()) yield out.take();
  }
  yield out.take();
}

/**
 * A kind's text from one of its rows (`cells`: its row made the general way with no list row and no
 * reply; `held`: the values the source gives of it, HELD bits): which columns each row fills in from
 * the source, the list and the replies, the rest fixed.
 */
function kindOf(s: ContactState, held: number, columns: readonly string[], cells: readonly string[], delimiter: string): Kind {
  const { status } = s;
  const delivery = status === 'sent' ? held : 0;
  const own = (column: string): Field | undefined => {
    switch (column) {
      case 'phone':
        return Field.Phone;
      case 'conversation_id':
        return held & HELD.conversationId ? Field.ConversationId : undefined;
      case 'client_id':
        return held & HELD.clientId ? Field.ClientId : undefined;
      case 'message_id':
        return status === 'sent' && held & HELD.messageId ? Field.MessageId : undefined;
      case 'attempts':
        return held & HELD.attempts ? Field.Attempts : undefined;
      case 'line':
        return held & HELD.line ? Field.Line : undefined;
      case 'updated_at':
        return held & HELD.updatedAt ? Field.UpdatedAt : undefined;
      case 'sent_at':
        return status === 'sent' && held & HELD.sentAt ? Field.SentAt : undefined;
      case 'not_before':
        return status === 'deferred' && held & HELD.notBefore ? Field.NotBefore : undefined;
      case 'http_status':
        return status === 'failed' && held & HELD.httpStatus ? Field.HttpStatus : undefined;
      case 'delivered_at':
        return delivery & HELD.deliveredAt ? Field.DeliveredAt : undefined;
      case 'read_at':
        return delivery & HELD.readAt ? Field.ReadAt : undefined;
      case 'replied_at':
        return Field.RepliedAt;
      case 'name':
        return Field.Name;
      case 'phone_as_written':
        return Field.PhoneAsWritten;
      case 'source_file':
        return Field.SourceFile;
      case 'source_line':
        return Field.SourceLine;
      case 'variant':
        return s.variant === undefined ? Field.Variant : undefined;
      case 'arm':
        return Field.Arm;
      default:
        return undefined;
    }
  };
  const texts: ByteWords[] = [];
  const fields: Field[] = [];
  let fixed = '';
  columns.forEach((column, i) => {
    if (i > 0) fixed += delimiter;
    const field = own(column);
    if (field === undefined) {
      fixed += csvCell(cells[i] ?? '', delimiter);
      return;
    }
    texts.push(byteWords(Buffer.from(fixed)));
    fields.push(field);
    fixed = '';
  });
  texts.push(byteWords(Buffer.from(`${fixed}\n`)));
  return { texts, fields };
}

function putField(
  out: CsvBytes,
  field: Field,
  rows: StateRows,
  source: RowSource | undefined,
  phone: string,
  replies: ReadonlyMap<string, string>,
  armOf: (phone: string) => string | undefined,
): void {
  switch (field) {
    case Field.Phone:
      out.byte(43);
      out.uint(rows.phone);
      return;
    // The ids are the platform's plain decimal ids as numbers (state-rows.ts): safe as they are.
    case Field.ConversationId:
      return out.uint(rows.conversationId);
    case Field.ClientId:
      return out.uint(rows.clientId);
    case Field.MessageId:
      return out.uint(rows.messageId);
    case Field.Attempts:
      return out.uint(rows.attempts);
    case Field.Line:
      return out.uint(rows.line);
    case Field.HttpStatus:
      return out.uint(rows.httpStatus);
    case Field.UpdatedAt:
      return out.iso(rows.updatedAt, out.updatedAt);
    case Field.SentAt:
      return out.iso(rows.sentAt, out.time2);
    case Field.NotBefore:
      return out.iso(rows.notBefore, out.time2);
    case Field.DeliveredAt:
      return out.iso(rows.deliveredAt, out.deliveredAt);
    case Field.ReadAt:
      return out.iso(rows.readAt, out.readAt);
    case Field.RepliedAt:
      return replies.size === 0 ? undefined : out.cell(replies.get(phone));
    case Field.Name:
      return out.cell(source?.name);
    case Field.PhoneAsWritten:
      return out.cell(source?.phoneAsWritten);
    case Field.SourceFile:
      return out.cell(source?.file);
    case Field.SourceLine:
      return source?.line === undefined ? undefined : out.text(String(source.line));
    case Field.Variant:
      return out.cell(source?.variant);
    case Field.Arm:
      return out.cell(armOf(phone));
  }
}

/** The listing's flags (listing.ts). */
const HAS_NAME = 1;
const HAS_WRITTEN = 2;
const NONE = 0xffff;

/** The list's row at position `at`, as ContactListing.at gives it. */
function listedSource(listed: ListingColumns, at: number): RowSource {
  const text = listed.texts.toString('utf8', listed.textStart[at] ?? 0, listed.textStart[at + 1] ?? 0);
  const nul = text.indexOf('\u0000');
  const flags = listed.flags[at] ?? 0;
  const file = listed.fileOf[at] ?? NONE;
  const variant = listed.variantOf[at] ?? NONE;
  return {
    line: listed.lines[at] ?? 0,
    ...(file !== NONE && { file: listed.files[file] }),
    ...(flags & HAS_NAME && { name: nul === -1 ? text : text.slice(0, nul) }),
    ...(flags & HAS_WRITTEN && { phoneAsWritten: nul === -1 ? '' : text.slice(nul + 1) }),
    ...(variant !== NONE && { variant: listed.variants[variant] }),
  };
}

const CHUNK = 1 << 18;
/** `00` to `99` as little-endian 16-bit words of their two ASCII digits. */
const DIGIT_PAIRS = Uint16Array.from({ length: 100 }, (_, n) => (48 + Math.floor(n / 10)) | ((48 + (n % 10)) << 8));

/**
 * CSV bytes written into one buffer at a time (a new one when it is handed on): numbers and ISO times
 * as their digits, a text cell as it is unless it needs the formula guard or quotes.
 */
class CsvBytes {
  private buf = Buffer.allocUnsafe(CHUNK);
  private view = viewOf(this.buf);
  private pos = 0;
  private readonly full: Buffer[] = [];
  private readonly delimiter: number;
  /** The time columns' writers: updated_at, sent_at or not_before, delivered_at, read_at. */
  readonly updatedAt = new IsoWriter();
  readonly time2 = new IsoWriter();
  readonly deliveredAt = new IsoWriter();
  readonly readAt = new IsoWriter();
  private lastCell = '';
  private lastCellWords: ByteWords = byteWords(new Uint8Array(0));

  constructor(private readonly delimiterText: string) {
    this.delimiter = delimiterText.charCodeAt(0);
  }

  private lastTexts: Uint8Array | undefined;
  private lastTextsView: DataView | undefined;

  private nulTexts: Uint8Array | undefined;
  private nulAt = -1;
  private nul = 0;

  /** Where the list row `at`'s name ends (its NUL, or `end`): found once for its name and its phone as written. */
  private nulOf(texts: Uint8Array, at: number, start: number, end: number): number {
    if (at === this.nulAt && texts === this.nulTexts) return this.nul;
    let nul = start;
    while (nul < end && texts[nul] !== 0) nul += 1;
    this.nulTexts = texts;
    this.nulAt = at;
    this.nul = nul;
    return nul;
  }

  /** A DataView of the listing's texts, made once. */
  private textsView(texts: Uint8Array): DataView {
    if (this.lastTexts !== texts || this.lastTextsView === undefined) {
      this.lastTexts = texts;
      this.lastTextsView = viewOf(texts);
    }
    return this.lastTextsView;
  }

  /** Whether a piece is ready to hand on. */
  ready(): boolean {
    return this.full.length > 0 || this.pos >= CHUNK - 4096;
  }

  /** What is written so far, in one piece, valid until the next write (the buffer is reused). */
  take(): Buffer {
    const piece = this.full.length === 0 ? this.buf.subarray(0, this.pos) : Buffer.concat([...this.full, this.buf.subarray(0, this.pos)]);
    this.full.length = 0;
    this.pos = 0;
    return piece;
  }

  private room(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    this.full.push(this.buf.subarray(0, this.pos));
    this.buf = Buffer.allocUnsafe(Math.max(CHUNK, bytes));
    this.view = viewOf(this.buf);
    this.pos = 0;
  }

  byte(b: number): void {
    this.room(1);
    this.buf[this.pos++] = b;
  }

  /** A kind's fixed text, 4 bytes at a time. */
  words(text: ByteWords): void {
    this.room(text.length + 3);
    this.pos = putWords(this.view, this.pos, text);
  }

  text(s: string): void {
    this.room(s.length * 3);
    this.pos += this.buf.write(s, this.pos);
  }

  /** A whole number from 0 to 2^53 as its decimal digits (what String gives). */
  uint(n: number): void {
    if (!(n >= 0 && n <= Number.MAX_SAFE_INTEGER && Number.isInteger(n))) return this.text(String(n));
    if (n < 1e8) return this.small(n, 0);
    // Two parts of at most 8 digits each handled as small integers.
    const high = Math.floor(n / 1e8);
    this.uint(high);
    this.small(n - high * 1e8, 8);
  }

  /** A whole number below 10^8, padded with zeros to `width` digits. */
  private small(n: number, width: number): void {
    let digits = n < 10_000 ? (n < 100 ? (n < 10 ? 1 : 2) : n < 1000 ? 3 : 4) : n < 1_000_000 ? (n < 100_000 ? 5 : 6) : n < 10_000_000 ? 7 : 8;
    if (digits < width) digits = width;
    this.room(digits);
    const view = this.view;
    let at = this.pos + digits;
    this.pos = at;
    let m = n | 0;
    let left = digits;
    // Two digits at a time from the end, from a table of the pairs.
    for (; left >= 2; left -= 2) {
      const q = (m / 100) | 0;
      at -= 2;
      view.setUint16(at, DIGIT_PAIRS[m - q * 100] ?? 0, true);
      m = q;
    }
    if (left === 1) this.buf[at - 1] = 48 + m;
  }

  /** `new Date(ms).toISOString()`, by `writer` (one per column: its text to the second kept from its row before). */
  iso(ms: number, writer: IsoWriter): void {
    if (!isoFits(ms)) return this.text(new Date(ms).toISOString());
    this.room(ISO_BYTES);
    this.pos = writer.write(ms, this.view, this.pos);
  }

  /** A cell of the list's row at position `at`, from the listing's arrays (its texts' UTF-8 copied when they need no guard nor quotes). */
  listed(listed: ListingColumns, at: number, field: Field): void {
    switch (field) {
      case Field.Name:
      case Field.PhoneAsWritten: {
        const flags = listed.flags[at] ?? 0;
        if ((flags & (field === Field.Name ? HAS_NAME : HAS_WRITTEN)) === 0) return;
        const texts = listed.texts;
        const start = listed.textStart[at] ?? 0;
        const end = listed.textStart[at + 1] ?? 0;
        const nul = this.nulOf(texts, at, start, end);
        const from = field === Field.Name ? start : Math.min(nul + 1, end);
        const to = field === Field.Name ? nul : end;
        if (to <= from) return;
        if (plainBytes(texts, from, to, this.delimiter)) {
          this.room(to - from);
          if (to - from > 32) this.pos += texts.copy(this.buf, this.pos, from, to);
          else this.pos = copyWords(this.textsView(texts), texts, from, to, this.view, this.pos);
        } else this.cell(texts.toString('utf8', from, to));
        return;
      }
      case Field.SourceFile: {
        const file = listed.fileOf[at] ?? NONE;
        if (file !== NONE) this.cell(listed.files[file]);
        return;
      }
      case Field.SourceLine:
        return this.uint(listed.lines[at] ?? 0);
      case Field.Variant: {
        const variant = listed.variantOf[at] ?? NONE;
        if (variant !== NONE) this.cell(listed.variants[variant]);
        return;
      }
      default:
        return;
    }
  }

  /** A text's cell (csv-safe's guard, csvCell's quotes), as it is when it needs neither; a repeated one (a file's name) kept. */
  cell(value: string | undefined): void {
    if (value === undefined || value === '') return;
    if (value === this.lastCell) return this.words(this.lastCellWords);
    if (value.length < 16 && plain(value, this.delimiter)) return this.text(value);
    const text = plain(value, this.delimiter) ? value : csvCell(cell(value), this.delimiterText);
    this.lastCell = value;
    this.lastCellWords = byteWords(Buffer.from(text));
    this.words(this.lastCellWords);
  }
}

function viewOf(b: Uint8Array): DataView {
  return new DataView(b.buffer, b.byteOffset, b.byteLength);
}

/** Whether a text is its own cell: no formula guard (csv-safe.ts), no quotes (csvCell). */
function plain(value: string, delimiter: number): boolean {
  const first = value.charCodeAt(0);
  if (first === 61 || first === 45 || first === 64 || first === 9 || first === 13) return false;
  // `+` is guarded unless only digits follow (an E.164 phone as written).
  if (first === 43) {
    if (value.length < 2) return false;
    for (let i = 1; i < value.length; i++) {
      const ch = value.charCodeAt(i);
      if (ch < 48 || ch > 57) return false;
    }
    return true;
  }
  for (let i = 0; i < value.length; i++) {
    const ch = value.charCodeAt(i);
    if (ch === delimiter || ch === 34 || ch === 10 || ch === 13) return false;
  }
  return true;
}

/** `plain` for a text's UTF-8 bytes (the characters it looks at are ASCII, so bytes tell them). */
function plainBytes(b: Buffer, from: number, to: number, delimiter: number): boolean {
  const first = b[from] ?? 0;
  if (first === 61 || first === 45 || first === 64 || first === 9 || first === 13) return false;
  if (first === 43) {
    if (to - from < 2) return false;
    for (let i = from + 1; i < to; i++) {
      const ch = b[i] ?? 0;
      if (ch < 48 || ch > 57) return false;
    }
    return true;
  }
  for (let i = from; i < to; i++) {
    const ch = b[i] ?? 0;
    if (ch === delimiter || ch === 34 || ch === 10 || ch === 13) return false;
  }
  return true;
}
