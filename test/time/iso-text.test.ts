import { describe, expect, it } from 'vitest';
import { isoText } from '../../src/time/iso.js';

describe('isoText', () => {
  it('writes what Date writes, within one second, across seconds and years, and before 1970', () => {
    const base = Date.parse('2026-11-26T08:00:59.000Z');
    const times = [base, base + 1, base + 9, base + 10, base + 99, base + 100, base + 999, base + 1000, base + 1001, base + 7, base - 1, 0, -1, -999, -1000, -1001, Date.parse('9999-12-31T23:59:59.999Z')];
    for (const ms of times) expect(isoText(ms)).toBe(new Date(ms).toISOString());
  });

  it('leaves a time Date cannot write as whole milliseconds of years 0 to 9999 to Date', () => {
    expect(isoText(1.5)).toBe(new Date(1.5).toISOString());
    expect(isoText(Date.parse('+010000-01-01T00:00:00.000Z'))).toBe('+010000-01-01T00:00:00.000Z');
    expect(() => isoText(Number.NaN)).toThrow(RangeError);
  });
});
