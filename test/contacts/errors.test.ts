import { execFile } from 'node:child_process';
import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputError } from '../../src/contacts/index.js';
import { fixture, load, loadError, tempDir } from './helpers.js';
import { repoRoot } from '../helpers/cli.js';

const execFileP = promisify(execFile);

/** The loader's error for `file`, read by the built code in a process of the user nobody (uid 65534), its folder open to them. */
async function loadErrorAsNobody(dir: string, file: string): Promise<string> {
  await chmod(dir, 0o755);
  const loader = pathToFileURL(path.join(repoRoot, 'dist', 'src', 'contacts', 'index.js')).href;
  const script = `const { loadContacts } = await import(${JSON.stringify(loader)});
try { for await (const _ of loadContacts([${JSON.stringify(file)}], {}).items); process.stdout.write('no error'); }
catch (err) { process.stdout.write(err.message); }`;
  const { stdout } = await execFileP(process.execPath, ['--input-type=module', '-e', script], { uid: 65534, gid: 65534, cwd: '/' });
  return stdout;
}

describe('fatal input errors: one sentence naming the file, the line and the fix', () => {
  let t: Awaited<ReturnType<typeof tempDir>>;
  beforeEach(async () => {
    t = await tempDir();
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('a missing file', async () => {
    const file = fixture('no-such-file.csv');
    const err = await loadError([file]);
    expect(err).toBeInstanceOf(InputError);
    expect(err.userError).toBe(true);
    expect(err.message).toBe(`${file}: no such file; check the path (relative paths start from ${process.cwd()})`);
  });

  it('a folder', async () => {
    const dir = path.join(t.dir, 'lists');
    await mkdir(dir);
    const err = await loadError([dir]);
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toBe(
      `${dir} is a folder, not a contacts file; give the path of a .csv, .tsv, .json or .ndjson file (or a glob such as ${dir}/*.csv)`,
    );
  });

  it('an empty file, and one of only a BOM and blank lines', async () => {
    for (const name of ['empty.csv', 'blank.csv']) {
      const file = fixture(name);
      const err = await loadError([file]);
      expect(err).toBeInstanceOf(InputError);
      expect(err.message).toBe(`${file} is empty; it needs a header row naming the columns (such as phone,name) and one row per contact`);
    }
    const json = await t.write('empty.json', '  \n');
    expect((await loadError([json])).message).toBe(`${json} is empty; it needs a JSON list of contacts such as [{"phone": "+5511987654321"}]`);
  });

  it('a quote that opens and never closes, at the line where the row starts', async () => {
    const file = fixture('unterminated-quote.csv');
    const err = await loadError([file]);
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toBe(`${file} line 6: a quote opens here and never closes; close it or remove it`);
    expect(err.line).toBe(6);
  });

  it('a quote that never closes, caught by the row-size limit before the end of a long file', async () => {
    const rows = ['phone,name', '+5511987654321,"Ana'];
    for (let i = 0; i < 40_000; i++) rows.push(`+55119${70000000 + i},Contact number ${i} with a longer name`);
    const file = await t.write('runaway.csv', rows.join('\n'));
    const err = await loadError([file]);
    expect(err.message).toBe(
      `${file} line 2: this row runs past 1,000,000 characters, most likely because a quote opens here and never closes; close it or remove it`,
    );
  });

  it('a quote in the header that never closes', async () => {
    const file = await t.write('header.csv', 'phone,"name\n+5511987654321,Ana\n');
    expect((await loadError([file])).message).toBe(`${file} line 1: a quote opens here and never closes; close it or remove it`);
  });

  it('invalid JSON, at the line of the mistake', async () => {
    const file = fixture('bad.json');
    const err = await loadError([file]);
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toBe(
      `${file} line 3: this is not valid JSON (expected double-quoted property name); fix it, for instance a missing comma or quote, or a comma before a closing brace`,
    );
  });

  it('invalid NDJSON, at its line', async () => {
    const file = fixture('bad.ndjson');
    expect((await loadError([file])).message).toBe(
      `${file} line 4: this is not valid JSON (expected ',' or '}' after property value); fix it, for instance a missing comma or quote, or a comma before a closing brace`,
    );
  });

  it('JSON that is not a list, a list that never closes, a trailing comma, text after the list', async () => {
    const object = await t.write('object.json', '{"contacts": []}');
    expect((await loadError([object])).message).toBe(
      `${object} line 1: a JSON contacts file must be a list of objects, [{"phone": "+5511987654321"}, …]; wrap the contacts in [ ] or use .ndjson for one object a line`,
    );
    const open = await t.write('open.json', '[\n{"phone": "+5511987654321"},\n{"phone": "+5511987654322"}\n');
    expect((await loadError([open])).message).toBe(`${open} line 1: the list opened here never closes; add ] at the end of the file`);
    const brace = await t.write('brace.json', '[\n{"phone": "+5511987654321"},\n{"phone": "+5511987654322"\n]\n');
    expect((await loadError([brace])).message).toBe(
      `${brace} line 4: this is not valid JSON (expected ',' or '}' after property value); fix it, for instance a missing comma or quote, or a comma before a closing brace`,
    );
    const unclosed = await t.write('unclosed.json', '[\n{"phone": "+5511987654321"},\n{"phone": "+5511987654322"\n');
    expect((await loadError([unclosed])).message).toBe(`${unclosed} line 3: this entry opens a { or [ that never closes; close it`);
    const trailing = await t.write('trailing.json', '[\n{"phone": "+5511987654321"},\n]\n');
    expect((await loadError([trailing])).message).toBe(`${trailing} line 3: a comma before the closing ] has no entry after it; remove the comma`);
    const after = await t.write('after.json', '[{"phone": "+5511987654321"}]\n]');
    expect((await loadError([after])).message).toBe(`${after} line 2: there is more text after the list's closing ]; remove it or put it inside the list`);
  });

  it('no phone column, listing the columns and suggesting the likely one', async () => {
    const file = fixture('no-phone.csv');
    const err = await loadError([file]);
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toBe(
      `${file}: no column "phone" (columns are: Nome, Celular, Email); set columns.phone in the job to the right header, perhaps "Celular"`,
    );
  });

  it('no column of the name the job gives', async () => {
    const file = fixture('excel-semicolon-bom.csv');
    const err = await loadError([file], { columns: { phone: 'Phone' } });
    expect(err.message).toBe(
      `${file}: no column "Phone" (columns are: Telefone, Nome, Sobrenome, E-mail, Cupom, Cidade); set columns.phone in the job to the right header, perhaps "Telefone"`,
    );
    const named = await loadError([file], { columns: { phone: 'Telefone', name: 'First name' } });
    expect(named.message).toBe(
      `${file}: no column "First name" (columns are: Telefone, Nome, Sobrenome, E-mail, Cupom, Cidade); set columns.name in the job to the right header or leave it out`,
    );
  });

  it('a first line of data instead of a header', async () => {
    const file = await t.write('no-header.csv', '+5511987654321,Ana\n+5511987654322,Bia\n');
    expect((await loadError([file])).message).toBe(
      `${file}: no column "phone" (columns are: +5511987654321, Ana); the first line looks like a contact rather than a header, so add a header line such as phone,name`,
    );
  });

  it('no phone key in the first JSON object', async () => {
    const file = await t.write('keys.json', '[\n  {"telefone": "+5511987654321", "nome": "Ana"}\n]');
    expect((await loadError([file])).message).toBe(
      `${file} line 2: no key "phone" (keys are: telefone, nome); set columns.phone in the job to the right key, perhaps "telefone"`,
    );
  });

  it('a spreadsheet workbook instead of a CSV', async () => {
    const file = await t.write('contacts.csv', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]));
    expect((await loadError([file])).message).toBe(
      `${file} is an Excel workbook (.xlsx), not a CSV or JSON list; in the spreadsheet use Save As > "CSV UTF-8" and give that file`,
    );
  });

  it('an unknown default country', async () => {
    const err = await loadError([fixture('countries.csv')], { defaultCountry: 'XX' as 'BR' });
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toBe('default_country "XX" is not a country code; use a two-letter ISO code such as BR, US or PT');
  });

  it('an unreadable file', async () => {
    const file = await t.write('secret.csv', 'phone\n+5511987654321\n');
    await chmod(file, 0o000);
    // Root reads any file: as root, the built loader reads it as the user nobody, as a service account would.
    const message = process.getuid?.() === 0 ? await loadErrorAsNobody(t.dir, file) : (await loadError([file])).message;
    expect(message).toBe(`${file}: permission denied; make the file readable by this user`);
  });

  it('checks every file before the first row, so a bad last file stops the load before anything is read', async () => {
    const good = fixture('countries.csv');
    const { items } = (await import('../../src/contacts/index.js')).loadContacts([good, fixture('no-phone.csv')], {});
    const seen: unknown[] = [];
    await expect(async () => {
      for await (const item of items) seen.push(item);
    }).rejects.toThrow('no column "phone"');
    expect(seen).toEqual([]);
  });

  it('a header-only file and an empty JSON list are not errors', async () => {
    await expect(load([fixture('header-only.csv')])).resolves.toMatchObject({ counts: { rows: 0 } });
  });
});
