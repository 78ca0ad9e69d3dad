/**
 * The one home of ISO times as the tool writes them (`Date#toISOString`: `YYYY-MM-DDTHH:mm:ss.sssZ`,
 * 24 ASCII characters), without a Date object: read to epoch ms (`isoMs`), written as text
 * (`isoText`: every event a run records, every time a replay writes back) or straight into a byte
 * buffer (`writeIso`, `IsoWriter`: the report's million rows). Times from 1970 to 9999 are written by
 * integer arithmetic; any other is left to Date.
 */
import { civilFromDays } from './civil-date.js';

/** The epoch ms of `text` when `isoText` of it gives `text` back exactly; undefined otherwise. */
export function isoMs(text: unknown): number | undefined {
  if (typeof text !== 'string' || text.length !== 24) return undefined;
  if (text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 84 || text.charCodeAt(13) !== 58) return undefined;
  if (text.charCodeAt(16) !== 58 || text.charCodeAt(19) !== 46 || text.charCodeAt(23) !== 90) return undefined;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  const milli = digits(text, 20, 3);
  if (year < 1970 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || milli < 0) return undefined;
  return Date.UTC(year, month - 1, day, hour, minute, second, milli);
}

/**
 * `isoMs` of the 24 bytes at `start` of `buf` (an ISO time inside a journal line, read without a
 * string), or -1 where `isoMs` of their text gives undefined (or the bytes end before). The epoch ms
 * by integer arithmetic (days from the civil date), the same number Date.UTC gives from 1970 on.
 */
export function isoMsBytes(buf: Uint8Array, start: number): number {
  if (start + ISO_BYTES > buf.length) return -1;
  const date = dateMsBytes(buf, start);
  const time = timeMsBytes(buf, start);
  return date < 0 || time < 0 ? -1 : date + time;
}

/** `isoMsBytes` for a series of times mostly of the same day (a journal's): the day's text and ms kept from the last one read. */
export class IsoBytesReader {
  private readonly day = new Uint8Array(DATE_BYTES);
  private dayMs = -1;

  read(buf: Uint8Array, start: number): number {
    if (start + ISO_BYTES > buf.length) return -1;
    const time = timeMsBytes(buf, start);
    if (time < 0) return -1;
    const day = this.day;
    let same = this.dayMs >= 0;
    for (let i = 0; same && i < DATE_BYTES; i++) same = buf[start + i] === day[i];
    if (!same) {
      const date = dateMsBytes(buf, start);
      if (date < 0) return -1;
      day.set(buf.subarray(start, start + DATE_BYTES));
      this.dayMs = date;
    }
    return this.dayMs + time;
  }
}

/** `YYYY-MM-DD`: the bytes of the date of an ISO time. */
const DATE_BYTES = 10;

/** The epoch ms of the date (`YYYY-MM-DD`, a year from 1970, a day its month has) at `start`, or -1. */
function dateMsBytes(buf: Uint8Array, start: number): number {
  if (buf[start + 4] !== 45 || buf[start + 7] !== 45) return -1;
  const year = byteDigits(buf, start, 4);
  const month = byteDigits(buf, start + 5, 2);
  const day = byteDigits(buf, start + 8, 2);
  if (year < 1970 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return -1;
  return daysFromCivil(year, month, day) * 86_400_000;
}

/** The ms into its day of the time (`THH:mm:ss.sssZ`) after the date at `start`, or -1. */
function timeMsBytes(buf: Uint8Array, start: number): number {
  if (buf[start + 10] !== 84 || buf[start + 13] !== 58 || buf[start + 16] !== 58 || buf[start + 19] !== 46 || buf[start + 23] !== 90) return -1;
  const hour = byteDigits(buf, start + 11, 2);
  const minute = byteDigits(buf, start + 14, 2);
  const second = byteDigits(buf, start + 17, 2);
  const milli = byteDigits(buf, start + 20, 3);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || milli < 0) return -1;
  return ((hour * 60 + minute) * 60 + second) * 1000 + milli;
}

/** Days since 1970-01-01 of a civil date from 1970 on (Howard Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** `digits` of bytes. */
function byteDigits(buf: Uint8Array, start: number, length: number): number {
  let n = 0;
  for (let i = start; i < start + length; i++) {
    const d = (buf[i] ?? 0) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/** The number written by `length` ASCII digits from `start`, or -1 when one is not a digit. */
function digits(text: string, start: number, length: number): number {
  let n = 0;
  for (let i = start; i < start + length; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/** `new Date(ms).toISOString()` for whole ms from 1970 to 9999. */
export function isoText(ms: number): string {
  if (!isoFits(ms)) return new Date(ms).toISOString();
  const days = Math.floor(ms / 86_400_000);
  let rest = ms - days * 86_400_000;
  const hour = Math.floor(rest / 3_600_000);
  rest -= hour * 3_600_000;
  const minute = Math.floor(rest / 60_000);
  rest -= minute * 60_000;
  const second = Math.floor(rest / 1000);
  const milli = rest - second * 1000;
  const { year, month, day } = civilFromDays(days);
  return `${year}-${twoDigits(month)}-${twoDigits(day)}T${twoDigits(hour)}:${twoDigits(minute)}:${twoDigits(second)}.${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}

function twoDigits(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** The bytes of one time. */
export const ISO_BYTES = 24;
/** The bytes up to the second's end and its dot (`YYYY-MM-DDTHH:mm:ss.`): all but the milliseconds and `Z`. */
const SECOND_BYTES = 20;
/** 10000-01-01T00:00:00.000Z: toISOString writes a year of more than 4 digits from here. */
const END_MS = 253_402_300_800_000;

/** Whether `ms` is a whole time from 1970 to 9999, which `writeIso` writes. */
export function isoFits(ms: number): boolean {
  return Number.isInteger(ms) && ms >= 0 && ms < END_MS;
}

/** Writes `new Date(ms).toISOString()` for a time `isoFits` into `buf` at `pos`; returns the position after it. */
export function writeIso(ms: number, buf: Uint8Array, pos: number): number {
  const second = Math.floor(ms / 1000);
  writeSecond(second, buf, pos);
  return writeMilli(ms - second * 1000, buf, pos + SECOND_BYTES);
}

/**
 * `writeIso` for a series of times mostly in the same second as the one before (a column of the state
 * in row order), through a DataView: the text up to the second is kept from the last time as 5 words,
 * the milliseconds and `Z` are one word of a table.
 */
export class IsoWriter {
  private second = -1;
  private readonly head = new Uint8Array(SECOND_BYTES);
  private readonly headView = new DataView(this.head.buffer);
  private readonly words = new Uint32Array(SECOND_BYTES / 4);

  /** Writes the time (one `isoFits`) at `pos` of `view`; returns the position after it. */
  write(ms: number, view: DataView, pos: number): number {
    const second = Math.floor(ms / 1000);
    const words = this.words;
    if (second !== this.second) {
      this.second = second;
      writeSecond(second, this.head, 0);
      for (let i = 0; i < words.length; i++) words[i] = this.headView.getUint32(i * 4, true);
    }
    view.setUint32(pos, words[0] ?? 0, true);
    view.setUint32(pos + 4, words[1] ?? 0, true);
    view.setUint32(pos + 8, words[2] ?? 0, true);
    view.setUint32(pos + 12, words[3] ?? 0, true);
    view.setUint32(pos + 16, words[4] ?? 0, true);
    view.setUint32(pos + 20, MILLI_WORDS[ms - second * 1000] ?? 0, true);
    return pos + ISO_BYTES;
  }
}

/** `sssZ` of each millisecond 0–999 as a little-endian word. */
const MILLI_WORDS = (() => {
  const words = new Uint32Array(1000);
  const bytes = new Uint8Array(4);
  const view = new DataView(bytes.buffer);
  for (let milli = 0; milli < 1000; milli++) {
    writeMilli(milli, bytes, 0);
    words[milli] = view.getUint32(0, true);
  }
  return words;
})();

/** `YYYY-MM-DDTHH:mm:ss.` of the second `second` (since 1970), 20 bytes at `pos`. */
function writeSecond(second: number, buf: Uint8Array, pos: number): void {
  const days = Math.floor(second / 86_400);
  let rest = second - days * 86_400;
  const hour = Math.floor(rest / 3600);
  rest -= hour * 3600;
  const minute = Math.floor(rest / 60);
  const sec = rest - minute * 60;
  const { year, month, day } = civilFromDays(days);
  buf[pos] = 48 + Math.floor(year / 1000);
  buf[pos + 1] = 48 + (Math.floor(year / 100) % 10);
  buf[pos + 2] = 48 + (Math.floor(year / 10) % 10);
  buf[pos + 3] = 48 + (year % 10);
  buf[pos + 4] = 45;
  two(month, buf, pos + 5);
  buf[pos + 7] = 45;
  two(day, buf, pos + 8);
  buf[pos + 10] = 84;
  two(hour, buf, pos + 11);
  buf[pos + 13] = 58;
  two(minute, buf, pos + 14);
  buf[pos + 16] = 58;
  two(sec, buf, pos + 17);
  buf[pos + 19] = 46;
}

/** `sss` and `Z`: 4 bytes at `pos`; returns the position after them. */
function writeMilli(milli: number, buf: Uint8Array, pos: number): number {
  const tens = Math.floor(milli / 10);
  buf[pos] = 48 + Math.floor(milli / 100);
  buf[pos + 1] = 48 + (tens % 10);
  buf[pos + 2] = 48 + (milli - tens * 10);
  buf[pos + 3] = 90;
  return pos + 4;
}

function two(n: number, buf: Uint8Array, pos: number): void {
  const tens = Math.floor(n / 10);
  buf[pos] = 48 + tens;
  buf[pos + 1] = 48 + (n - tens * 10);
}
