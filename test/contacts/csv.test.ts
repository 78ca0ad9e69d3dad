import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { brief, fixture, load, tempDir } from './helpers.js';

describe('CSV: an Excel export (BOM, semicolons, CRLF, accents)', () => {
  const file = fixture('excel-semicolon-bom.csv');
  const options = {
    defaultCountry: 'BR' as const,
    columns: { phone: 'Telefone', name: 'Nome', lastname: 'sobrenome ', email: 'E-MAIL' },
  };

  it('detects the delimiter, drops the BOM and maps the columns case-insensitively', async () => {
    const { contacts, rejects, counts } = await load([file], options);
    expect(contacts.map((c) => [c.line, c.phone, c.name, c.lastname])).toEqual([
      [2, '+5511987654321', 'João', 'Conceição'],
      [3, '+5511991234567', 'Ana Lúcia', 'Ribeiro'],
      [4, '+5521998765432', 'Mário', 'Araújo'],
      [7, '+5531988887777', 'Cecília', 'Gonçalves'],
    ]);
    expect(rejects.map(brief)).toEqual([{ line: 5, reason: 'phone_missing' }]);
    // the row of empty cells (line 6) is a blank line, not a row
    expect(counts).toEqual({ rows: 5, contacts: 4, rejected: 1, byReason: { phone_missing: 1 }, warnings: 0, warningsByKind: {} });
  });

  it('keeps every column in vars under its trimmed lower-cased header, plus the canonical keys', async () => {
    const { contacts } = await load([file], options);
    expect(contacts[0]!.vars).toEqual({
      telefone: '(11) 98765-4321',
      nome: 'João',
      sobrenome: 'Conceição',
      'e-mail': 'joao.conceicao@example.com',
      cupom: 'BF10',
      cidade: 'São Paulo',
      phone: '+5511987654321',
      name: 'João',
      lastname: 'Conceição',
      email: 'joao.conceicao@example.com',
    });
    expect(contacts[0]!.email).toBe('joao.conceicao@example.com');
    expect(contacts[1]!.vars.cupom).toBe('');
    expect(contacts[2]!.vars.cidade).toBe('Rio de Janeiro; RJ');
  });

  it('gives a reject the raw row (original headers, file order) and the raw phone', async () => {
    const { rejects } = await load([file], options);
    expect(rejects[0]).toEqual({
      file,
      line: 5,
      rawPhone: '',
      reason: 'phone_missing',
      detail: 'the phone cell is empty',
      raw: { Telefone: '', Nome: 'Sem Telefone', Sobrenome: '', 'E-mail': '', Cupom: 'BF30', Cidade: 'Niterói' },
    });
    expect(Object.keys(rejects[0]!.raw)).toEqual(['Telefone', 'Nome', 'Sobrenome', 'E-mail', 'Cupom', 'Cidade']);
  });

  it('reads the same file when the delimiter is set', async () => {
    const { contacts } = await load([file], { ...options, delimiter: ';' });
    expect(contacts).toHaveLength(4);
  });
});

describe('CSV: line numbers', () => {
  it('numbers each row by the line it starts on, after quoted cells with line breaks and blank lines', async () => {
    const { contacts, rejects } = await load([fixture('multiline.csv')]);
    expect(contacts.map((c) => [c.line, c.name])).toEqual([
      [2, 'Ana'],
      [4, 'Bruno\nCosta'],
      [6, 'Carla'],
      [8, 'Diego'],
    ]);
    expect(contacts[0]!.vars.note).toBe('first line\nsecond line');
    expect(contacts[1]!.vars.note).toBe('a "quoted" word');
    expect(rejects.map(brief)).toEqual([{ line: 11, reason: 'phone_invalid' }]);
  });

  it('counts CRLF line breaks inside quoted cells once', async () => {
    const t = await tempDir();
    try {
      const file = await t.write('crlf.csv', 'phone,note\r\n+5511987654321,"a\r\nb\r\nc"\r\n\r\n+5511987654322,x\r\nbad,y\r\n');
      const { contacts, rejects } = await load([file]);
      expect(contacts.map((c) => c.line)).toEqual([2, 6]);
      expect(rejects.map(brief)).toEqual([{ line: 7, reason: 'phone_invalid' }]);
    } finally {
      await t.cleanup();
    }
  });
});

describe('CSV: ragged rows', () => {
  it('rejects rows with too many or too few cells, with the counts in the detail', async () => {
    const { contacts, rejects } = await load([fixture('ragged.csv')]);
    expect(contacts.map((c) => c.line)).toEqual([2, 5]);
    expect(rejects.map((r) => [r.line, r.reason, r.detail, r.rawPhone])).toEqual([
      [3, 'ragged_row', '5 cells where the header has 4', '+5511987654322'],
      [4, 'ragged_row', '2 cells where the header has 4', '+5511987654323'],
    ]);
    expect(rejects[0]!.raw).toEqual({
      phone: '+5511987654322',
      name: 'Bruno',
      email: 'bruno@example.com',
      coupon: 'BF2',
      'column 5': 'extra',
    });
    expect(rejects[1]!.raw).toEqual({ phone: '+5511987654323', name: 'Carla' });
  });
});

describe('CSV: encodings, delimiters and layouts', () => {
  let t: Awaited<ReturnType<typeof tempDir>>;
  beforeEach(async () => {
    t = await tempDir();
  });
  afterEach(async () => {
    await t.cleanup();
  });

  const text = 'Phone\tName\tCity\n+5511987654321\tJoão\tSão Paulo\n(21) 99876-5432\tZé\t"Rio\tde Janeiro"\n12\tBad\tX\n';

  it('decodes UTF-16 LE with its BOM (an Excel "Unicode text" export)', async () => {
    const file = await t.write('utf16le.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const { contacts, rejects } = await load([file], { defaultCountry: 'BR' });
    expect(contacts.map((c) => [c.line, c.phone, c.name, c.vars.city])).toEqual([
      [2, '+5511987654321', 'João', 'São Paulo'],
      [3, '+5521998765432', 'Zé', 'Rio\tde Janeiro'],
    ]);
    expect(rejects.map(brief)).toEqual([{ line: 4, reason: 'phone_invalid' }]);
  });

  it('decodes UTF-16 BE with its BOM', async () => {
    const le = Buffer.from(text, 'utf16le');
    const be = Buffer.alloc(le.length);
    for (let i = 0; i < le.length; i += 2) {
      be[i] = le[i + 1]!;
      be[i + 1] = le[i]!;
    }
    const file = await t.write('utf16be.csv', Buffer.concat([Buffer.from([0xfe, 0xff]), be]));
    const { contacts } = await load([file], { defaultCountry: 'BR' });
    expect(contacts.map((c) => c.name)).toEqual(['João', 'Zé']);
  });

  it('decodes UTF-16 split across read chunks (a long file)', async () => {
    const rows = ['phone,name'];
    for (let i = 0; i < 30_000; i++) rows.push(`+55119${String(70000000 + i)},Conceição ${i}`);
    const file = await t.write('long16.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${rows.join('\n')}\n`, 'utf16le')]));
    const { contacts } = await load([file]);
    expect(contacts).toHaveLength(30_000);
    expect(contacts[29_999]).toMatchObject({ line: 30_001, name: 'Conceição 29999', phone: '+5511970029999' });
  });

  it('reads a Windows-1252 export (not UTF-8) without mangling accents', async () => {
    const file = await t.write('latin.csv', Buffer.from('phone;name\n+5511987654321;Jo\xe3o Concei\xe7\xe3o\n', 'latin1'));
    const { contacts } = await load([file]);
    expect(contacts[0]!.name).toBe('João Conceição');
  });

  it('detects a comma, a semicolon or a tab from the header line', async () => {
    const comma = await t.write('comma.csv', 'phone,name;x\n+5511987654321,"A; B"\n');
    const semicolon = await t.write('semicolon.csv', 'phone;name;note,x\n+5511987654321;Ana;"a, b"\n');
    const tab = await t.write('tab.csv', 'phone\tname\n+5511987654321\tAna, B\n');
    expect((await load([comma])).contacts[0]!.vars).toMatchObject({ 'name;x': 'A; B' });
    expect((await load([semicolon])).contacts[0]!.vars).toMatchObject({ name: 'Ana', 'note,x': 'a, b' });
    expect((await load([tab])).contacts[0]!.name).toBe('Ana, B');
  });

  it('reads a .tsv by its extension and a single-column list', async () => {
    const tsv = await t.write('list.tsv', 'phone\tname\n+5511987654321\tAna; Bia, Carla\n');
    const single = await t.write('single.csv', 'Phone\n+5511987654321\n+5511987654322\n');
    expect((await load([tsv])).contacts[0]!.name).toBe('Ana; Bia, Carla');
    expect((await load([single])).contacts.map((c) => c.phone)).toEqual(['+5511987654321', '+5511987654322']);
  });

  it("honours Excel's sep= line and numbers lines from the top of the file", async () => {
    const file = await t.write('sep.csv', 'sep=;\nphone;name\n+5511987654321;Ana\nbad;Bia\n');
    const { contacts, rejects } = await load([file]);
    expect(contacts.map((c) => [c.line, c.name])).toEqual([[3, 'Ana']]);
    expect(rejects.map(brief)).toEqual([{ line: 4, reason: 'phone_invalid' }]);
  });

  it('skips blank lines before the header', async () => {
    const file = await t.write('blank-top.csv', '\n\nphone,name\n+5511987654321,Ana\n');
    const { contacts } = await load([file]);
    expect(contacts.map((c) => c.line)).toEqual([4]);
  });

  it('reads a file with no extension by its content', async () => {
    const file = await t.write('contacts', 'phone;name\n+5511987654321;Ana\n');
    expect((await load([file])).contacts[0]!.name).toBe('Ana');
  });

  it('reads a header-only file as no rows', async () => {
    const { counts } = await load([fixture('header-only.csv')]);
    expect(counts.rows).toBe(0);
  });

  it('takes a quote inside an unquoted cell, or text after a closing quote, literally', async () => {
    const file = await t.write('quote.csv', 'phone,name\n+5511987654321,Ana "Aninha" Silva\n+5511987654322,"Bia" Souza\n');
    expect((await load([file])).contacts.map((c) => c.name)).toEqual(['Ana "Aninha" Silva', '"Bia" Souza']);
  });
});

describe('CSV: phones from many countries in one list', () => {
  it('keeps each international number in its own country, reads national ones as the default country', async () => {
    const { contacts, rejects } = await load([fixture('countries.csv')], { defaultCountry: 'BR' });
    expect(rejects).toEqual([]);
    expect(contacts.map((c) => [c.name, c.phone])).toEqual([
      ['US', '+14155552671'],
      ['GB', '+447400123456'],
      ['DE', '+4915123456789'],
      ['FR', '+33612345678'],
      ['IN', '+919876543210'],
      ['MX', '+525512345678'],
      ['ES', '+34612345678'],
      ['PT', '+351912345678'],
      ['NG', '+2348031234567'],
      ['AR', '+5491123456789'],
      ['BR', '+5511987654321'],
    ]);
  });

  it('without a default country, rejects national numbers with a detail that says to set it', async () => {
    const { contacts, rejects } = await load([fixture('countries.csv')]);
    expect(contacts).toHaveLength(10);
    expect(rejects.map(brief)).toEqual([{ line: 12, reason: 'phone_invalid' }]);
    expect(rejects[0]!.detail).toContain('set default_country');
  });
});

describe('CSV: what spreadsheets do to phones', () => {
  it('rejects scientific notation and decimals as mangled, and unwraps tel:, a leading apostrophe and ="…"', async () => {
    const { contacts, rejects } = await load([fixture('spreadsheet.csv')], { defaultCountry: 'BR' });
    expect(rejects.map((r) => [r.line, r.reason, r.rawPhone])).toEqual([
      [2, 'phone_mangled_by_spreadsheet', '5.5119876E+12'],
      [3, 'phone_mangled_by_spreadsheet', '5,51E+12'],
      [7, 'phone_mangled_by_spreadsheet', '5511987654321.0'],
    ]);
    expect(contacts.map((c) => [c.line, c.phone])).toEqual([
      [4, '+5511987654321'],
      [5, '+5511991234567'],
      [6, '+5521998765432'],
    ]);
  });
});

describe('CSV: requireMobile', () => {
  it('rejects numbers known to be fixed-line and lets fixed-line-or-mobile through', async () => {
    const { contacts, rejects } = await load([fixture('mobile.csv')], { defaultCountry: 'BR', requireMobile: true });
    expect(contacts.map((c) => c.name)).toEqual(['mobile', 'US fixed-line-or-mobile']);
    expect(rejects.map(brief)).toEqual([
      { line: 3, reason: 'phone_not_mobile' },
      { line: 5, reason: 'phone_not_mobile' },
    ]);
  });

  it('lets fixed lines through when not set', async () => {
    const { contacts } = await load([fixture('mobile.csv')], { defaultCountry: 'BR' });
    expect(contacts).toHaveLength(4);
  });
});
