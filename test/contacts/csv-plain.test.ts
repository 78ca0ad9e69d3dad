/**
 * CSV rows split by hand while the lines are plain (contacts/csv-plain.ts), csv-parse reading the
 * rest: the same rows, lines and errors as csv-parse reading every line (csvParseBatches), on files
 * of every shape: quotes over lines, stray and Windows line breaks, a BOM, an Excel `sep=` line, blank
 * and ragged rows, bytes that are not UTF-8, rows across the reader's 256 KB chunks, a quote that
 * never closes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CsvBatch, csvBatches, csvParseBatches, readHeader } from '../../src/contacts/csv.js';
import { openSource } from '../../src/contacts/source.js';
import { seededRandom } from '../../src/sim/random.js';
import { tempDir } from './helpers.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(async () => {
  await dir.cleanup();
});

interface Read {
  rows: string[][];
  lines: number[];
  error?: { message: string; line: number | undefined };
}

async function readWith(read: (source: Awaited<ReturnType<typeof openSource>>, layout: ReturnType<typeof readHeader>) => AsyncGenerator<CsvBatch>, file: string): Promise<Read> {
  const out: Read = { rows: [], lines: [] };
  try {
    const source = await openSource(file, undefined);
    const layout = readHeader(source, undefined);
    for await (const batch of read(source, layout)) {
      out.rows.push(...batch.rows);
      out.lines.push(...batch.lines);
    }
  } catch (err) {
    const e = err as Error & { line?: number };
    out.error = { message: e.message, line: e.line };
  }
  return out;
}

/** The file read both ways. */
async function bothWays(name: string, data: string | Buffer): Promise<{ plain: Read; parsed: Read }> {
  const file = await dir.write(name, data);
  return { plain: await readWith(csvBatches, file), parsed: await readWith(csvParseBatches, file) };
}

/** A random list: mostly plain lines, and now and then a line of another shape. */
function randomList(random: () => number, lines: number, odd: number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const delimiter = pick([',', ';', '\t']);
  const eol = random() < 0.5 ? '\n' : '\r\n';
  const cell = () => pick(['+5511987654321', 'Ana', ' João ', '', 'São Paulo', '42', 'a b', 'x'.repeat(Math.floor(random() * 30)), '😀', 'Ñandú']);
  const oddCell = () =>
    pick([`"quoted ${delimiter} cell"`, '"two\nlines"', '"say ""hi"""', 'mid"quote', '"unclosed', 'stray\rreturn', '"crlf\r\ninside"', ' "spaced"', '"a"b']);
  const out: string[] = [];
  if (random() < 0.2) out.push(`sep=${delimiter}`);
  if (random() < 0.1) out.push('');
  out.push(['phone', 'name', 'note'].join(delimiter));
  for (let i = 0; i < lines; i++) {
    const r = random();
    if (r < 0.03) out.push('');
    else if (r < 0.05) out.push(delimiter.repeat(2));
    else {
      const n = r < 0.08 ? 2 : r < 0.1 ? 4 : 3;
      const cells = Array.from({ length: n }, () => (random() < odd ? oddCell() : cell()));
      out.push(cells.join(delimiter));
    }
  }
  let text = out.join(eol);
  if (random() < 0.7) text += eol;
  if (random() < 0.05) text = text.replace(eol, eol === '\n' ? '\r\n' : '\n'); // a file whose first break is not its others
  return (random() < 0.3 ? '\ufeff' : '') + text;
}

describe('CSV rows split by hand while the lines are plain', () => {
  it('reads as csv-parse alone does: the same rows, lines and errors, on 300 random lists', async () => {
    const random = seededRandom(36);
    for (let n = 0; n < 300; n++) {
      const odd = n % 3 === 0 ? 0 : n % 3 === 1 ? 0.002 : 0.05;
      const { plain, parsed } = await bothWays(`random-${n}.csv`, randomList(random, 20 + Math.floor(random() * 400), odd));
      expect(plain, `list ${n}`).toEqual(parsed);
    }
  });

  it('reads as csv-parse does across the reader\'s chunks, a quoted row past the first megabyte, and a quote that never closes at the end', async () => {
    const rows = Array.from({ length: 40_000 }, (_, i) => `+55119${String(10_000_000 + i)};Nome ${i} Ção;${'n'.repeat(i % 50)}`);
    const base = `phone;name;note\r\n${rows.join('\r\n')}\r\n`;
    for (const [name, text] of [
      ['long.csv', base],
      ['quoted-late.csv', `${base}+5511999999999;"Silva; Ana";"two\r\nlines"\r\n+5511999999998;Bia;x\r\n`],
      ['unclosed-late.csv', `${base}+5511999999999;"never closes\r\n+5511999999998;Bia;x\r\n`],
      ['no-last-break.csv', base.trimEnd()],
    ] as const) {
      const { plain, parsed } = await bothWays(name, text);
      expect(plain.rows.length, name).toBeGreaterThanOrEqual(40_000);
      expect(plain, name).toEqual(parsed);
    }
  });

  it('reads bytes that are not UTF-8 and Windows-1252 and UTF-16 files as csv-parse does', async () => {
    const utf8Broken = Buffer.concat([Buffer.from('phone,name\n+5511987654321,Jo'), Buffer.from([0xe3, 0x6f, 0x2c, 0xf0, 0x9f]), Buffer.from(',x\n+5511987654322,ok\n')]);
    const latin = Buffer.from('phone;name\r\n+5511987654321;Jo\xe3o\r\n+5511987654322;Concei\xe7\xe3o\r\n', 'latin1');
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('phone\tname\n+5511987654321\tAna\n"+5511987654322"\tBia\n', 'utf16le')]);
    for (const [name, data] of [
      ['broken.csv', utf8Broken],
      ['latin.csv', latin],
      ['utf16.tsv', utf16],
    ] as const) {
      const { plain, parsed } = await bothWays(name, data);
      expect(plain.rows.length, name).toBeGreaterThan(0);
      expect(plain, name).toEqual(parsed);
    }
  });

  it('gives a line that starts after a quoted cell over several lines its own line number, as csv-parse does', async () => {
    const { plain, parsed } = await bothWays('multi.csv', 'phone,note\n+5511987654321,plain\n+5511987654322,"one\ntwo\nthree"\n+5511987654323,after\n');
    expect(plain).toEqual(parsed);
    expect(plain.lines).toEqual([2, 3, 6]);
  });
});
