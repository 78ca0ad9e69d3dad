/**
 * ISO times as the journal writes them (`toISOString`: `YYYY-MM-DDTHH:mm:ss.sssZ`) to epoch ms and
 * back, without a Date object: replaying a million contacts reads and writes two of them per event.
 */
import { civilFromDays } from '../time/civil-date.js';

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
  if (!Number.isInteger(ms) || ms < 0 || ms >= 253_402_300_800_000) return new Date(ms).toISOString();
  const days = Math.floor(ms / 86_400_000);
  let rest = ms - days * 86_400_000;
  const hour = Math.floor(rest / 3_600_000);
  rest -= hour * 3_600_000;
  const minute = Math.floor(rest / 60_000);
  rest -= minute * 60_000;
  const second = Math.floor(rest / 1000);
  const milli = rest - second * 1000;
  const { year, month, day } = civilFromDays(days);
  return `${year}-${two(month)}-${two(day)}T${two(hour)}:${two(minute)}:${two(second)}.${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}

function two(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
