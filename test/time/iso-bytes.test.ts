import { describe, expect, it } from 'vitest';
import { ISO_BYTES, IsoWriter, isoFits, writeIso } from '../../src/time/iso.js';

/** Instants across the state's range: epoch, leap days, month and year ends, each millisecond digit, the last ms of 9999. */
const INSTANTS = [
  0,
  1,
  999,
  Date.UTC(1970, 11, 31, 23, 59, 59, 999),
  Date.UTC(1972, 1, 29, 12, 0, 0, 5),
  Date.UTC(2000, 1, 29, 23, 59, 59, 990),
  Date.UTC(2000, 2, 1),
  Date.UTC(2100, 1, 28, 23, 59, 59, 999),
  Date.UTC(2100, 2, 1, 0, 0, 0, 1),
  Date.UTC(2024, 1, 29, 8, 7, 6, 54),
  Date.UTC(2026, 10, 21, 10, 0, 0, 3),
  Date.UTC(2026, 11, 31, 23, 59, 59, 999),
  Date.UTC(2027, 0, 1),
  Date.UTC(9999, 11, 31, 23, 59, 59, 999),
];

function written(ms: number, write: (ms: number, buf: Uint8Array, pos: number) => number): string {
  const buf = Buffer.alloc(ISO_BYTES + 3, 0x2e);
  const end = write(ms, buf, 2);
  expect(end).toBe(2 + ISO_BYTES);
  return buf.toString('latin1', 2, end);
}

describe('ISO times written as bytes', () => {
  it('writes what Date#toISOString gives, for leap days, month and year ends and every millisecond digit', () => {
    for (const ms of INSTANTS) expect(written(ms, writeIso)).toBe(new Date(ms).toISOString());
  });

  it('writes what Date#toISOString gives for an instant in every 5 days, 7 hours and 13 ms from 1970 to 2200', () => {
    const step = 5 * 86_400_000 + 7 * 3_600_000 + 13_013;
    for (let ms = 0; ms < Date.UTC(2200, 0, 1); ms += step) expect(written(ms, writeIso)).toBe(new Date(ms).toISOString());
  });

  it('keeps the second of the time before and still writes each time exactly, going forward, back and across days', () => {
    const writer = new IsoWriter();
    const times = [...INSTANTS, Date.UTC(2026, 10, 21, 10, 0, 0, 3), Date.UTC(2026, 10, 21, 10, 0, 0, 997), Date.UTC(2026, 10, 21, 10, 0, 1, 0), Date.UTC(2026, 10, 21, 9, 59, 59, 999), ...INSTANTS.reverse()];
    for (const ms of times) expect(written(ms, (t, buf, pos) => writer.write(t, new DataView(buf.buffer, buf.byteOffset, buf.byteLength), pos))).toBe(new Date(ms).toISOString());
  });

  it('takes whole times from 1970 to 9999 only', () => {
    expect(isoFits(0)).toBe(true);
    expect(isoFits(Date.UTC(9999, 11, 31, 23, 59, 59, 999))).toBe(true);
    expect(isoFits(Date.UTC(10000, 0, 1))).toBe(false);
    expect(isoFits(-1)).toBe(false);
    expect(isoFits(1.5)).toBe(false);
    expect(isoFits(Number.NaN)).toBe(false);
  });
});
