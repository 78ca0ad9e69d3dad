import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importSuppressions, planJob, suppressPhones, unsuppressPhones } from '../../src/app/index.js';
import { loadContacts } from '../../src/contacts/index.js';
import { bench, phone, type Bench } from './helpers.js';

let b: Bench;
beforeEach(async () => {
  b = await bench();
});
afterEach(async () => {
  await b.close();
});

describe('the contact list: consent and time-zone columns', () => {
  it('keeps the consent cell, canonicalises the zone, and rejects a zone that is none as unknown_timezone', async () => {
    const file = path.join(b.dir, 'c.csv');
    await writeFile(file, 'phone,ok,zone\n+5511987650001,Sim,america/sao_paulo\n+5511987650002,,Mars/Olympus\n+5511987650003,no,\n');
    const items = [];
    for await (const item of loadContacts([file], { columns: { opt_in: 'ok', timezone: 'zone' } }).items) items.push(item);
    expect(items[0]).toMatchObject({ kind: 'contact', contact: { optIn: 'Sim', timezone: 'America/Sao_Paulo' } });
    expect(items[1]).toMatchObject({ kind: 'reject', reject: { reason: 'unknown_timezone', line: 3 } });
    expect(items[2]).toMatchObject({ kind: 'contact', contact: { optIn: 'no' } });
    expect(items[2]?.kind === 'contact' ? items[2].contact.timezone : 'not a contact').toBeUndefined();
  });

  it('refuses a list that lacks the consent column the job names', async () => {
    const file = path.join(b.dir, 'c.csv');
    await writeFile(file, 'phone\n+5511987650001\n');
    const read = async () => {
      for await (const item of loadContacts([file], { columns: { opt_in: 'Consent' } }).items) void item;
    };
    await expect(read()).rejects.toThrow(/no column "Consent".*columns\.opt_in/);
  });
});

describe('plan: contacts that fall back to default_timezone', () => {
  it("takes each contact's zone from its cell, else its number (the numbering plan), and counts those left to default_timezone", async () => {
    const jobFile = await b.job('zones', [{ phone: phone(0), tz: 'Asia/Tokyo' }, { phone: phone(1) }, { phone: '+5592981234567' }, { phone: '+351912345678' }, { phone: '+12024561111' }], {
      columns: { timezone: 'tz' },
      send_window: { from: '00:00', to: '24:00', default_timezone: 'America/Sao_Paulo' },
      limits: { max_reject_ratio: 1 },
    });
    const plan = await planJob(await b.prepare(jobFile), { store: b.store });
    // Portugal's mobiles may be in Lisbon or the Azores: only that one falls back.
    expect(plan.zoneFallbacks).toEqual({ count: 1, zone: 'America/Sao_Paulo' });
    expect(plan.byZone).toEqual({ 'Asia/Tokyo': 1, 'America/Sao_Paulo': 2, 'America/Manaus': 1, 'America/New_York': 1 });
  });
});

describe('suppression use-cases: what a person can get wrong', () => {
  it('names a bad default country, a file with no phone column, and a missing file', async () => {
    await expect(suppressPhones(b.store, ['11987654321'], { defaultCountry: 'XX' })).rejects.toThrow(/--default-country "XX" is not a country code/);
    const file = path.join(b.dir, 'names.csv');
    await writeFile(file, 'name,email\nAna,a@x\n');
    await expect(importSuppressions(b.store, file)).rejects.toThrow(/no phone column in the header \(name, email\)/);
    await expect(importSuppressions(b.store, path.join(b.dir, 'nope.csv'))).rejects.toThrow(/nope\.csv: no such file/);
    expect((await b.store.suppressions()).size).toBe(0);
  });

  it('removes a phone written in national form once normalised, whoever added it', async () => {
    await suppressPhones(b.store, ['+5511987654321'], { reason: 'x' });
    expect(await unsuppressPhones(b.store, ['(11) 98765-4321', '+5511987654399'], { defaultCountry: 'br' })).toEqual({
      removed: ['+5511987654321'],
      notListed: ['+5511987654399'],
    });
  });
});
