import type { ColumnRows, Columns, ContactState } from '../checkpoint/index.js';
import { csvCell, csvRecord } from './csv-chunks.js';
import { csvOptions, reportColumns, type ReportLayout } from './report-layout.js';
import { contactRow, type ReportRow, type RowSource } from './report-rows.js';
import { cell, csvLayout, REPORT_COLUMNS } from './report.js';

/**
 * report.csv written from the state table's columns (ColumnRows) and the listing straight to text,
 * the same bytes as the rows of `contactRow` through `writeReport`, with no state, row or cells made
 * per contact. Rows that share their kind (status, which fields the columns hold, the `rest` text,
 * the booleans, the delivery's code and the action) share every cell but the ones read from a column
 * (phone, ids, attempts, line, times, HTTP status), the replies and the list's: such a kind's row is
 * made once the general way (its first row decoded), its other cells kept as text, and each row then
 * fills in its own. Rows the columns do not hold (set last, kept whole) and the pending rows go the
 * general way.
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
  Time2,
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

/** The state-columns bits the writer reads (state-columns.ts HAS and the delivery's). */
const HAS = { attempts: 1, line: 2, updatedAt: 4, conversationId: 32, clientId: 64, messageId: 128, sentAt: 256, notBefore: 512, httpStatus: 1024 } as const;
const DELIVERED_AT = 8;
const READ_AT = 16;
const SENT = 1;
const FAILED = 2;
const DEFERRED = 5;
/** Kinds kept as text at most (a state whose `rest` is its own, such as a unique error, would make one per row). */
const MAX_KINDS = 4096;

/** A kind's row: its fixed text between the fields a row fills in (`texts` has one more entry than `fields`). */
interface Kind {
  texts: string[];
  fields: Field[];
}

export interface ColumnCsvSource {
  /** The list's row of the state in column row order, by its phone's number (`phone` is its text). */
  byNumber(n: number, phone: string): RowSource | undefined;
  /** The list's row of a phone (a state the columns do not hold). */
  get(phone: string): RowSource | undefined;
}

export interface ColumnCsvInput {
  sources: ColumnCsvSource;
  replies: ReadonlyMap<string, string>;
  /** The list's contacts with no state, as rows: written after the table's (the general way). */
  pending: Iterable<ReportRow>;
  layout: ReportLayout;
  /** An experiment's arm of a phone (the `arm` column), when the layout has it. */
  armOf?: (phone: string) => string | undefined;
  /** Told each row written. */
  count?: () => void;
}

/** Whether the layout can be written from the columns: without the list's own columns (`report --columns`). */
export function columnCsvFits(layout: ReportLayout): boolean {
  return (layout.sourceColumns ?? []).length === 0;
}

/** The CSV text, in pieces of about 256 KB: the header, the table's rows, then the pending ones. */
export function* columnCsvChunks(table: ColumnRows, input: ColumnCsvInput): Generator<string> {
  const { sources, replies, pending, layout } = input;
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
  const c = table.columns;
  const kinds = new Map<number, Map<number, Kind | null>>();
  let kindCount = 0;
  const iso = isoWriter();
  const escaped = lastEscaped(delimiter);
  let text = `${bom ? '\uFEFF' : ''}${csvRecord(header, delimiter)}`;
  for (let row = 0; row < table.rows; row++) {
    if (!table.encoded(row)) {
      const s = table.state(row);
      if (s === undefined) continue;
      text += general(contactRow(s.phone, s, sources.get(s.phone), replies.get(s.phone)));
    } else {
      const rest = c.rest[row] ?? 0;
      const key = (c.status[row] ?? 0) + (c.has[row] ?? 0) * 0x100 + (c.bools[row] ?? 0) * 0x100_0000 + (c.delivery[row] ?? 0) * 0x1_0000_0000 + (c.action[row] ?? 0) * 0x100_0000_0000;
      let byKey = kinds.get(rest);
      if (byKey === undefined) {
        byKey = new Map();
        kinds.set(rest, byKey);
      }
      let kind = byKey.get(key);
      const n = c.phone[row] ?? 0;
      const phone = `+${n}`;
      if (kind === undefined) {
        const s = table.state(row);
        kind = s !== undefined && kindCount < MAX_KINDS ? kindOf(s, c, row, columns, cellsOf(contactRow(s.phone, s, undefined, undefined)), delimiter) : null;
        byKey.set(key, kind);
        kindCount += 1;
      }
      const source = sources.byNumber(n, phone);
      if (kind === null) {
        const s = table.state(row);
        if (s !== undefined) text += general(contactRow(s.phone, s, source, replies.get(s.phone)));
      } else {
        const { texts, fields } = kind;
        let line = texts[0] ?? '';
        for (let i = 0; i < fields.length; i++) {
          const field = fields[i] ?? Field.Phone;
          line += field === Field.Arm ? escaped(armOf(phone)) : fieldText(field, c, row, phone, source, replies, iso, escaped);
          line += texts[i + 1] ?? '';
        }
        text += line;
      }
    }
    count();
    if (text.length >= 1 << 18) {
      yield text;
      text = '';
    }
  }
  for (const s of table.others) {
    text += general(contactRow(s.phone, s, sources.get(s.phone), replies.get(s.phone)));
    count();
  }
  for (const r of pending) {
    text += general(r);
    count();
    if (text.length >= 1 << 18) {
      yield text;
      text = '';
    }
  }
  if (text.length > 0) yield text;
}

/**
 * A kind's text from one of its rows (`cells`: its row made the general way with no list row and no
 * reply): which columns each row fills in from the columns, the list and the replies, the rest fixed.
 */
function kindOf(s: ContactState, c: Readonly<Columns>, row: number, columns: readonly string[], cells: readonly string[], delimiter: string): Kind {
  const has = c.has[row] ?? 0;
  const status = c.status[row] ?? 0;
  const delivery = status === SENT ? (c.delivery[row] ?? 0) : 0;
  const own = (column: string): Field | undefined => {
    switch (column) {
      case 'phone':
        return Field.Phone;
      case 'conversation_id':
        return has & HAS.conversationId ? Field.ConversationId : undefined;
      case 'client_id':
        return has & HAS.clientId ? Field.ClientId : undefined;
      case 'message_id':
        return status === SENT && has & HAS.messageId ? Field.MessageId : undefined;
      case 'attempts':
        return has & HAS.attempts ? Field.Attempts : undefined;
      case 'line':
        return has & HAS.line ? Field.Line : undefined;
      case 'updated_at':
        return has & HAS.updatedAt ? Field.UpdatedAt : undefined;
      case 'sent_at':
        return status === SENT && has & HAS.sentAt ? Field.Time2 : undefined;
      case 'not_before':
        return status === DEFERRED && has & HAS.notBefore ? Field.Time2 : undefined;
      case 'http_status':
        return status === FAILED && has & HAS.httpStatus ? Field.HttpStatus : undefined;
      case 'delivered_at':
        return delivery & DELIVERED_AT ? Field.DeliveredAt : undefined;
      case 'read_at':
        return delivery & READ_AT ? Field.ReadAt : undefined;
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
  const texts: string[] = [];
  const fields: Field[] = [];
  let fixed = '';
  columns.forEach((column, i) => {
    if (i > 0) fixed += delimiter;
    const field = own(column);
    if (field === undefined) {
      fixed += csvCell(cells[i] ?? '', delimiter);
      return;
    }
    texts.push(fixed);
    fields.push(field);
    fixed = '';
  });
  texts.push(`${fixed}\n`);
  return { texts, fields };
}

function fieldText(
  field: Field,
  c: Readonly<Columns>,
  row: number,
  phone: string,
  source: RowSource | undefined,
  replies: ReadonlyMap<string, string>,
  iso: (ms: number) => string,
  escaped: (value: string | undefined) => string,
): string {
  switch (field) {
    case Field.Phone:
      return phone;
    // The ids are plain decimal numbers in their columns (state-columns' idNumber): safe as they are.
    case Field.ConversationId:
      return String(c.conversationId[row]);
    case Field.ClientId:
      return String(c.clientId[row]);
    case Field.MessageId:
      return String(c.messageId[row]);
    case Field.Attempts:
      return String(c.attempts[row]);
    case Field.Line:
      return String(c.line[row]);
    case Field.HttpStatus:
      return String(c.httpStatus[row]);
    case Field.UpdatedAt:
      return iso(c.updatedAt[row] ?? 0);
    case Field.Time2:
      return iso(c.time2[row] ?? 0);
    case Field.DeliveredAt:
      return iso(c.deliveredAt[row] ?? 0);
    case Field.ReadAt:
      return iso(c.readAt[row] ?? 0);
    case Field.RepliedAt:
      return replies.size === 0 ? '' : escaped(replies.get(phone));
    case Field.Name:
      return escaped(source?.name);
    case Field.PhoneAsWritten:
      return escaped(source?.phoneAsWritten);
    case Field.SourceFile:
      return escaped(source?.file);
    case Field.SourceLine:
      return source?.line === undefined ? '' : String(source.line);
    case Field.Variant:
      return escaped(source?.variant);
    case Field.Arm:
      return '';
  }
}

/** A text's cell, the last few texts' remembered (a file's name, a variant, repeat row after row). */
function lastEscaped(delimiter: string): (value: string | undefined) => string {
  let lastIn = '';
  let lastOut = '';
  return (value) => {
    if (value === undefined || value === '') return '';
    if (value === lastIn) return lastOut;
    const out = csvCell(cell(value), delimiter);
    if (value.length > 24) {
      lastIn = value;
      lastOut = out;
    }
    return out;
  };
}

const TWO = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const THREE = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
const DAY_MS = 86_400_000;

/** `new Date(ms).toISOString()`, the date part remembered from the last day asked. */
function isoWriter(): (ms: number) => string {
  let lastDay = Number.NaN;
  let datePart = '';
  return (ms) => {
    if (!Number.isInteger(ms) || ms < 0 || ms >= 253_402_300_800_000) return new Date(ms).toISOString();
    const day = Math.floor(ms / DAY_MS);
    if (day !== lastDay) {
      lastDay = day;
      datePart = new Date(day * DAY_MS).toISOString().slice(0, 11);
    }
    let rest = ms - day * DAY_MS;
    const hour = Math.floor(rest / 3_600_000);
    rest -= hour * 3_600_000;
    const minute = Math.floor(rest / 60_000);
    rest -= minute * 60_000;
    const second = Math.floor(rest / 1000);
    return `${datePart}${TWO[hour]}:${TWO[minute]}:${TWO[second]}.${THREE[rest - second * 1000]}Z`;
  };
}
