/**
 * The list's CSV read ahead in a worker thread (contacts/csv-read-ahead.ts): the loader gives the same
 * contacts, rejects, warnings, counts and errors as its own read, whatever the worker does. The worker
 * is the built one (npm test builds first): under this TypeScript loader there is none beside the module.
 */
import { spawn } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadContacts, readAheadCsv, type LoadItem, type LoaderOptions } from '../../src/contacts/index.js';
import { repoRoot } from '../helpers/cli.js';
import { fixture, tempDir } from './helpers.js';

const BUILT = new URL('../../dist/src/contacts/csv-read-worker.js', import.meta.url);
const workerFixture = (name: string) => new URL(`../fixtures/workers/${name}`, import.meta.url);

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await dir.cleanup();
});

/**
 * A list of many batches (a megabyte and more) in an Excel export's dress: BOM, `sep=;`, CRLF, quoted
 * cells with the delimiter, doubled quotes and line breaks inside, blank rows, ragged rows, duplicates,
 * numbers written in several ways and some that are not numbers.
 */
function bigList(rows: number): string {
  const lines = ['sep=;', 'Telefone;Nome;Nota'];
  for (let i = 0; i < rows; i++) {
    const n = String(10_000_000 + i);
    const phone = i % 7 === 0 ? `(11) 9${n.slice(0, 4)}-${n.slice(4)}` : i % 11 === 0 ? `+55 11 9${n}` : `+55119${n}`;
    const note = i % 5 === 0 ? `"uma nota; com ""aspas"" e\r\nduas linhas ${i}"` : `nota simples número ${i} ${'x'.repeat(60)}`;
    if (i % 997 === 0) lines.push('');
    if (i % 1_499 === 0) lines.push(';;');
    if (i % 1_201 === 0) lines.push(`${phone};Ragged`);
    if (i % 503 === 0) lines.push(`${`+55119${String(10_000_000 + i - 1)}`};Duplicate ${i};dup`);
    if (i % 809 === 0) lines.push(`12345;Not a number ${i};x`);
    lines.push(`${phone};Nome ${i} Ção;${note}`);
  }
  return `\ufeff${lines.join('\r\n')}\r\n`;
}

const OPTIONS: LoaderOptions = { defaultCountry: 'BR', columns: { phone: 'Telefone', name: 'Nome' } };

/** The load's outcome: every item in order, the counts, and the error that stopped it (message and line). */
async function outcome(files: string[], options: LoaderOptions) {
  const { items, counts } = loadContacts(files, options);
  const read: LoadItem[] = [];
  try {
    for await (const item of items) read.push(item);
    return { items: read, counts, error: undefined };
  } catch (err) {
    const e = err as Error & { line?: number; userError?: boolean };
    return { items: read, counts, error: { message: e.message, line: e.line, userError: e.userError } };
  }
}

const contactsOf = (o: { items: LoadItem[] }) => o.items.flatMap((i) => (i.kind === 'contact' ? [i.contact] : []));
const rejectsOf = (o: { items: LoadItem[] }) => o.items.flatMap((i) => (i.kind === 'reject' ? [i.reject] : []));

/** The load read by the loader itself, and with the rows read ahead by `worker`. */
async function bothReads(files: string[], options: LoaderOptions, worker: URL = BUILT, ahead: { delimiter?: ';' | ',' | '\t' } = {}) {
  const own = await outcome(files, options);
  const readAhead = readAheadCsv(files, { worker, format: options.format, delimiter: ahead.delimiter ?? options.delimiter });
  expect(readAhead, 'a worker to start').toBeDefined();
  try {
    return { own, withWorker: await outcome(files, { ...options, ...(readAhead && { readAhead }) }) };
  } finally {
    await readAhead?.close();
  }
}

describe('a CSV list read ahead in a worker', () => {
  it('gives the loader the same contacts, rejects, lines and counts as its own read, over many batches', async () => {
    const file = await dir.write('big.csv', bigList(12_000));
    const { own, withWorker } = await bothReads([file], OPTIONS);
    expect(own.error).toBeUndefined();
    expect(contactsOf(own).length).toBeGreaterThan(10_000);
    expect(rejectsOf(own).map((r) => r.reason)).toEqual(expect.arrayContaining(['duplicate', 'ragged_row', 'phone_invalid']));
    expect(withWorker).toEqual(own);
  });

  it('gives the same rows for the fixtures: quotes over lines, blank and ragged rows, a semicolon export with a BOM', async () => {
    for (const name of ['multiline.csv', 'ragged.csv', 'blank.csv', 'spreadsheet.csv', 'latam-mixed.csv']) {
      const { own, withWorker } = await bothReads([fixture(name)], { defaultCountry: 'BR' });
      expect(withWorker, name).toEqual(own);
    }
    const excel = { defaultCountry: 'BR' as const, columns: { phone: 'Telefone', name: 'Nome', lastname: 'sobrenome ', email: 'E-MAIL' } };
    const { own, withWorker } = await bothReads([fixture('excel-semicolon-bom.csv')], excel);
    expect(contactsOf(own)).toHaveLength(4);
    expect(withWorker).toEqual(own);
  });

  it('reads a Windows-1252 export and a TSV as the loader does', async () => {
    const latin = await dir.write('latin.csv', Buffer.from('phone,name\n+5511987654321,Jo\xe3o\n+5511987654322,Concei\xe7\xe3o\n', 'latin1'));
    const tsv = await dir.write('list.tsv', 'phone\tname\n+5511987654321\tAna\n\n+5511987654323\t"Bruno\tB."\n');
    for (const file of [latin, tsv]) {
      const { own, withWorker } = await bothReads([file], { defaultCountry: 'BR' });
      expect(contactsOf(own), file).toHaveLength(2);
      expect(withWorker, file).toEqual(own);
    }
  });

  it('stops at a quote that never closes with the loader\'s own sentence and line, after the same rows', async () => {
    const file = fixture('unterminated-quote.csv');
    const { own, withWorker } = await bothReads([file], { defaultCountry: 'BR' });
    expect(own.error).toEqual({ message: `${file} line 6: a quote opens here and never closes; close it or remove it`, line: 6, userError: true });
    expect(withWorker).toEqual(own);
  });

  it('reads a list of several files in order, a JSON file among them by the loader itself, deduped together', async () => {
    const a = fixture('duplicates-a.csv');
    const b = fixture('duplicates-b.csv');
    const files = [a, fixture('contacts.json'), b];
    const { own, withWorker } = await bothReads(files, { defaultCountry: 'BR' });
    expect(rejectsOf(own).some((r) => r.reason === 'duplicate')).toBe(true);
    expect(withWorker).toEqual(own);
  });

  it('reads a file by itself when the worker read its header otherwise (another delimiter)', async () => {
    const file = await dir.write('semi.csv', 'phone;name\n+5511987654321;Ana\n+5511987654322;Bia\n');
    const { own, withWorker } = await bothReads([file], { defaultCountry: 'BR', delimiter: ';' }, BUILT, { delimiter: ',' });
    expect(contactsOf(own)).toHaveLength(2);
    expect(withWorker).toEqual(own);
  });

  it('reads on by itself from the row after the last it took when the worker dies in the middle of a file', async () => {
    const file = await dir.write('big.csv', bigList(6_000));
    const { own, withWorker } = await bothReads([file], OPTIONS, workerFixture('csv-stops-after-a-batch.mjs'));
    expect(contactsOf(own).length).toBeGreaterThan(5_000);
    expect(withWorker).toEqual(own);
  });

  it('reads by itself when the worker fails as it starts, and starts none when there is no worker module', async () => {
    const file = fixture('multiline.csv');
    const { own, withWorker } = await bothReads([file], { defaultCountry: 'BR' }, workerFixture('fails-at-start.mjs'));
    expect(withWorker).toEqual(own);
    expect(readAheadCsv([file], { worker: new URL('./no-such-worker.js', BUILT) })).toBeUndefined();
  });

  it('lets the process end when the loader stops before the end of the list (the worker is stopped, not waited for)', async () => {
    const file = await dir.write('big.csv', bigList(20_000));
    const script = `
      const { readAheadCsv, loadContacts } = await import(${JSON.stringify(new URL('dist/src/contacts/index.js', `file://${repoRoot}/`).href)});
      const readAhead = readAheadCsv([${JSON.stringify(file)}]);
      let n = 0;
      for await (const item of loadContacts([${JSON.stringify(file)}], { defaultCountry: 'BR', columns: { phone: 'Telefone' }, readAhead }).items) if (++n === 10) break;
      console.log('read', n, readAhead !== undefined);
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect({ code, out: out.trim() }).toEqual({ code: 0, out: 'read 10 true' });
  });
});
