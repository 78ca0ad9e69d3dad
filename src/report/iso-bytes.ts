/**
 * `Date#toISOString`'s text (`YYYY-MM-DDTHH:mm:ss.sssZ`, 24 ASCII bytes) written straight into a
 * buffer from epoch ms by integer arithmetic, with no Date and no string per time. The state holds
 * times from 1970 (the journal's times are read only from then on) to 9999; `isoFits` says which a
 * caller may write this way.
 */
import { civilFromDays } from '../time/civil-date.js';

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
