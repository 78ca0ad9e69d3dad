import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputError } from '../../src/contacts/index.js';
import { loadJob } from '../../src/job/index.js';
import { load, loadError, tempDir } from './helpers.js';

const CSV = 'Telefone,Nome,E-mail\n+5511987654321,Ana,ana@example.com\n';
const HEADERS = 'Telefone, Nome, E-mail';

describe('a column the job names that the contact list does not have', () => {
  let t: Awaited<ReturnType<typeof tempDir>>;
  beforeEach(async () => {
    t = await tempDir();
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it.each(['name', 'lastname', 'email', 'last_inbound_at'] as const)(
    'refuses columns.%s naming a header the CSV lacks, listing the real headers',
    async (field) => {
      const file = await t.write('list.csv', CSV);
      const err = await loadError([file], { columns: { phone: 'Telefone', [field]: 'Missing column' } });
      expect(err).toBeInstanceOf(InputError);
      expect(err.message).toBe(
        `${file}: no column "Missing column" (columns are: ${HEADERS}); set columns.${field} in the job to the right header or leave it out`,
      );
    },
  );

  it('refuses a column the job names after the field itself when the caller says the job named it', async () => {
    const file = await t.write('list.csv', CSV);
    const options = { columns: { phone: 'Telefone', email: 'email' } };
    expect((await load([file], options)).contacts).toHaveLength(1); // a default the job did not write: fine
    const err = await loadError([file], { ...options, namedColumns: ['phone', 'email'] });
    expect(err.message).toBe(
      `${file}: no column "email" (columns are: ${HEADERS}); set columns.email in the job to the right header or leave it out`,
    );
  });

  it.each([
    ['JSON', 'list.json', '[\n{"phone": "+5511987654321", "nome": "Ana"},\n{"phone": "+5511987654322", "email": "b@example.com"}\n]'],
    ['NDJSON', 'list.ndjson', '{"phone": "+5511987654321", "nome": "Ana"}\n{"phone": "+5511987654322", "email": "b@example.com"}\n'],
  ])('refuses a %s list in which no entry has the named key, listing the keys', async (_format, name, text) => {
    const file = await t.write(name, text);
    const err = await loadError([file], { columns: { last_inbound_at: 'last_reply' } });
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toBe(
      `${file}: no entry has the key "last_reply" (keys are: phone, nome, email); set columns.last_inbound_at in the job to the right key or leave it out`,
    );
  });

  it('accepts a JSON list in which only a later entry has the named key (an entry may leave out an empty one)', async () => {
    const file = await t.write('list.json', '[{"phone": "+5511987654321"}, {"phone": "+5511987654322", "Nome": "Bia"}]');
    const { contacts } = await load([file], { columns: { name: 'nome' }, namedColumns: ['name'] });
    expect(contacts.map((c) => c.name)).toEqual([undefined, 'Bia']);
  });
});

describe('LoadedJob.namedColumns', () => {
  let t: Awaited<ReturnType<typeof tempDir>>;
  beforeEach(async () => {
    t = await tempDir();
  });
  afterEach(async () => {
    await t.cleanup();
  });

  const job = { name: 'bf', contacts: 'c.csv', company_id: 1, channel_id: 2, message: { text: 'hi' } };

  it('lists the columns the job file writes out, defaults included, and nothing the schema filled', async () => {
    const named = await t.write('named.json', JSON.stringify({ ...job, columns: { phone: 'Telefone', name: 'name' } }));
    expect((await loadJob(named)).namedColumns).toEqual(['phone', 'name']);
    const bare = await t.write('bare.json', JSON.stringify(job));
    expect((await loadJob(bare)).namedColumns).toEqual([]);
  });
});
