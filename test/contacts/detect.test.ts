import { describe, expect, it } from 'vitest';
import { detectDelimiter, excelSeparator, formatFromName, formatFromText, sniffEncoding } from '../../src/contacts/detect.js';

describe('detect', () => {
  it('reads the format from the extension', () => {
    expect(['a.csv', 'A.CSV', 'b.tsv', 'c.json', 'd.ndjson', 'e.jsonl', 'dir.v2/f', 'g.txt', 'h'].map(formatFromName)).toEqual([
      'csv',
      'csv',
      'tsv',
      'json',
      'ndjson',
      'ndjson',
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('reads the format from the first character when the extension says nothing', () => {
    expect(formatFromText('  \n[{"phone": 1}]')).toBe('json');
    expect(formatFromText('{"phone": 1}\n')).toBe('ndjson');
    expect(formatFromText('phone,name')).toBe('csv');
  });

  it('picks the commonest delimiter outside quotes, a comma on a tie or none', () => {
    expect(detectDelimiter('phone,name,email')).toBe(',');
    expect(detectDelimiter('Telefone;Nome;Cidade, UF')).toBe(';');
    expect(detectDelimiter('phone\tname\tnote;x')).toBe('\t');
    expect(detectDelimiter('"a;b;c",phone')).toBe(',');
    expect(detectDelimiter('phone;name,x')).toBe(',');
    expect(detectDelimiter('phone')).toBe(',');
  });

  it("reads Excel's sep= line", () => {
    expect(excelSeparator('sep=;')).toBe(';');
    expect(excelSeparator('SEP=,\r')).toBe(',');
    expect(excelSeparator('sep=|')).toBeUndefined();
    expect(excelSeparator('phone;name')).toBeUndefined();
  });

  it('tells encodings by BOM, NULs and UTF-8 validity, and spreadsheets by their magic bytes', () => {
    expect(sniffEncoding(Buffer.from('\ufeffphone', 'utf8'))).toEqual({ kind: 'text', encoding: 'utf-8', bomLength: 3 });
    expect(sniffEncoding(Buffer.from([0xff, 0xfe, 0x70, 0x00]))).toEqual({ kind: 'text', encoding: 'utf-16le', bomLength: 2 });
    expect(sniffEncoding(Buffer.from([0xfe, 0xff, 0x00, 0x70]))).toEqual({ kind: 'text', encoding: 'utf-16be', bomLength: 2 });
    expect(sniffEncoding(Buffer.from('phone,name\n', 'utf16le'))).toEqual({ kind: 'text', encoding: 'utf-16le', bomLength: 0 });
    expect(sniffEncoding(Buffer.from('João', 'utf8'))).toEqual({ kind: 'text', encoding: 'utf-8', bomLength: 0 });
    expect(sniffEncoding(Buffer.from('Jo\xe3o', 'latin1'))).toEqual({ kind: 'text', encoding: 'windows-1252', bomLength: 0 });
    // a character cut in two at the end of the sample is still UTF-8
    expect(sniffEncoding(Buffer.from('João', 'utf8').subarray(0, 3))).toEqual({ kind: 'text', encoding: 'utf-8', bomLength: 0 });
    expect(sniffEncoding(Buffer.from([0x50, 0x4b, 0x03, 0x04]))).toEqual({ kind: 'binary', what: 'xlsx' });
    expect(sniffEncoding(Buffer.from([0xd0, 0xcf, 0x11, 0xe0]))).toEqual({ kind: 'binary', what: 'xls' });
    expect(sniffEncoding(Buffer.from([0x00, 0x00, 0x01, 0x00, 0x00, 0x00]))).toEqual({ kind: 'binary', what: 'binary' });
  });
});
