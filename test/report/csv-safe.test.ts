import { describe, expect, it } from 'vitest';
import { safeCell } from '../../src/report/index.js';

describe('safeCell', () => {
  it.each([
    ['=SUM(A1:A9)', "'=SUM(A1:A9)"],
    ['=HYPERLINK("http://x","click")', `'=HYPERLINK("http://x","click")`],
    ['-2+3', "'-2+3"],
    ['@cmd', "'@cmd"],
    ['\t=1', "'\t=1"],
    ['\r=1', "'\r=1"],
    ['+SUM(1)', "'+SUM(1)"],
    ['+55 11 98765-4321', "'+55 11 98765-4321"],
    ['+', "'+"],
    ['+1a', "'+1a"],
  ])('escapes %j so a spreadsheet shows it as text', (input, expected) => {
    expect(safeCell(input)).toBe(expected);
  });

  it.each([['+5511987654321'], ['+1'], ['5511987654321'], ['Maria'], [''], ['a=b'], ['sent'], ["'already quoted"], ['12']])(
    'leaves %j as it is',
    (input) => {
      expect(safeCell(input)).toBe(input);
    },
  );
});
