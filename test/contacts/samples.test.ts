import { describe, expect, it } from 'vitest';
import { load } from './helpers.js';

const columns = { phone: 'Phone', name: 'First name', lastname: 'Last name', last_inbound_at: 'last_reply' };

describe('the sample lists load as the demo expects', () => {
  it('samples/contacts.csv: 300 rows, 10 bad phones, 5 duplicates, about 30 recent replies', async () => {
    const { contacts, rejects, warnings, counts } = await load(['samples/contacts.csv'], { defaultCountry: 'BR', columns });
    expect(counts).toEqual({
      rows: 300,
      contacts: 285,
      rejected: 15,
      byReason: { phone_missing: 2, phone_mangled_by_spreadsheet: 2, phone_invalid: 6, duplicate: 5 },
      warnings: 0,
      warningsByKind: {},
    });
    expect(warnings).toEqual([]);
    expect(rejects.every((r) => r.line > 1 && r.file === 'samples/contacts.csv')).toBe(true);
    const recent = contacts.filter((c) => c.lastInboundAt !== undefined && c.lastInboundAt >= Date.parse('2026-11-20T22:00:00Z'));
    expect(recent.length).toBeGreaterThanOrEqual(25);
    expect(contacts.some((c) => c.vars.coupon === '')).toBe(true);
    expect(contacts.every((c) => /^\+55\d{2}9\d{8}$/.test(c.phone) && c.name && c.lastname)).toBe(true);
  });

  it('samples/ww-contacts.csv: 50 international numbers, all valid without a default country', async () => {
    const { contacts, counts } = await load(['samples/ww-contacts.csv']);
    expect(counts).toMatchObject({ rows: 50, contacts: 50, rejected: 0 });
    expect(new Set(contacts.map((c) => c.phone.slice(0, 3))).size).toBeGreaterThanOrEqual(10);
  });

  it('samples/imports: two days of leads, the second repeating four of the first', async () => {
    const files = ['samples/imports/leads-2026-11-19.csv', 'samples/imports/leads-2026-11-20.csv'];
    const { rejects, counts } = await load(files, { defaultCountry: 'BR', columns });
    expect(counts).toMatchObject({ rows: 40, contacts: 36, rejected: 4, byReason: { duplicate: 4 } });
    expect(rejects.every((r) => r.file === files[1] && r.detail.startsWith(`same phone as ${files[0]} line`))).toBe(true);
  });
});
