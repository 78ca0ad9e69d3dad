import { describe, expect, it } from 'vitest';
import { safeCell, spreadsheetCell } from '../../src/report/index.js';

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

describe('spreadsheetCell (report.xlsx.csv, rejects.xlsx.csv)', () => {
  it.each([
    ['+5561966701065', undefined, '="+5561966701065"'],
    ['5561966701065', undefined, '="5561966701065"'],
    ['00123', 'cpf', '="00123"'],
    ['123456789012', undefined, '="123456789012"'],
    ['+55 61 96670-1065', 'phone_as_written', '="+55 61 96670-1065"'],
    ['(011) 97000-0001', 'raw_phone', '="(011) 97000-0001"'],
    ['1234', 'conversation_id', '="1234"'],
    ['say "hi" 1', 'message_id', '="say ""hi"" 1"'],
  ])('writes %j (column %s) so that it opens as text, not a number', (value, column, expected) => {
    expect(spreadsheetCell(value, column)).toBe(expected);
  });

  it.each([['12'], ['Maria'], [''], ['sent'], ['0'], ['12345678901']])('leaves %j as safeCell writes it', (value) => {
    expect(spreadsheetCell(value)).toBe(safeCell(value));
  });

  it('keeps the formula guard of other cells', () => {
    expect(spreadsheetCell('=SUM(A1)', 'name')).toBe("'=SUM(A1)");
  });
});
