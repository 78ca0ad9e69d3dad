/**
 * The loader a batch at a time (loadContactBatches), as a run's send pass reads it: the same items in
 * the same order as the loader one at a time, each row read, deduped and counted when it is taken from
 * its batch (the reject-ratio guard counts the rows taken, not the rows that arrived), and an error
 * where the one-at-a-time read meets it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadContactBatches, type LoadItem } from '../../src/contacts/index.js';
import { fixture, load, tempDir } from './helpers.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await dir.cleanup();
});

async function taken(files: string[], options: Parameters<typeof loadContactBatches>[1]): Promise<{ items: LoadItem[]; error?: string }> {
  const items: LoadItem[] = [];
  try {
    for await (const batch of loadContactBatches(files, options).batches) for (const item of batch) items.push(item);
    return { items };
  } catch (err) {
    return { items, error: (err as Error).message };
  }
}

describe('the loader a batch at a time', () => {
  it('gives the items of the loader one at a time, in order, over several files and formats', async () => {
    const files = [fixture('duplicates-a.csv'), fixture('contacts.json'), fixture('duplicates-b.csv'), fixture('contacts.ndjson'), fixture('multiline.csv')];
    const one = await load(files, { defaultCountry: 'BR' });
    const { items, error } = await taken(files, { defaultCountry: 'BR' });
    expect(error).toBeUndefined();
    expect(items.filter((i) => i.kind === 'contact').map((i) => i.contact)).toEqual(one.contacts);
    expect(items.filter((i) => i.kind === 'reject').map((i) => i.reject)).toEqual(one.rejects);
    expect(items.filter((i) => i.kind === 'warning')).toEqual(one.warnings);
  });

  it('counts a row when it is taken from its batch, not when the batch arrives', async () => {
    const rows = Array.from({ length: 50 }, (_, i) => `+55119${String(10_000_000 + i)},Ana ${i}`);
    const file = await dir.write('list.csv', `phone,name\n${rows.join('\n')}\n12345,Bad\n`);
    const { batches, counts } = loadContactBatches([file], { defaultCountry: 'BR' });
    const iterator = batches[Symbol.asyncIterator]();
    const first = await iterator.next();
    if (first.done) throw new Error('expected a first batch');
    expect(counts.rows).toBe(0);
    const items = first.value[Symbol.iterator]();
    for (let i = 0; i < 3; i++) items.next();
    expect(counts).toMatchObject({ rows: 3, contacts: 3, rejected: 0 });
    let took = 3;
    for (let next = items.next(); !next.done; next = items.next()) took += 1;
    expect(counts.rows).toBe(took);
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) for (const item of next.value) expect(item.kind).not.toBe('warning');
    expect(counts).toMatchObject({ rows: 51, contacts: 50, rejected: 1, byReason: { phone_invalid: 1 } });
  });

  it('stops at a JSON column the job named that the first entries lack after the entries before, as one at a time', async () => {
    const entries = [{ phone: '+5511987654321', nome: 'Ana' }, { phone: '+5511987654322', nome: 'Bia' }, { phone: '+5511987654323', nome: 'Caio' }];
    const file = await dir.write('list.json', JSON.stringify(entries));
    const options = { defaultCountry: 'BR' as const, columns: { name: 'first_name' }, namedKeysWithin: 2 };
    const { items, error } = await taken([file], options);
    expect(error).toMatch(/first_name/);
    let oneError: string | undefined;
    const one: LoadItem[] = [];
    try {
      const { loadContacts } = await import('../../src/contacts/index.js');
      for await (const item of loadContacts([file], options).items) one.push(item);
    } catch (err) {
      oneError = (err as Error).message;
    }
    expect({ items, error }).toEqual({ items: one, error: oneError });
    expect(items).toHaveLength(1);
  });
});
