import { describe, expect, it } from 'vitest';
import { parseInstant } from '../../src/contacts/time.js';
import { describeWarnings } from '../../src/contacts/index.js';
import { fixture, load, tempDir } from './helpers.js';

describe('parseInstant: last_inbound_at', () => {
  const at = (iso: string): number => Date.parse(iso);
  const readable: [string, string][] = [
    ['2026-11-20T14:03:00-03:00', '2026-11-20T17:03:00Z'],
    ['2026-11-20T14:03:00+0530', '2026-11-20T08:33:00Z'],
    ['2026-11-20T14:03-03', '2026-11-20T17:03:00Z'],
    ['2026-11-20T17:03:00Z', '2026-11-20T17:03:00Z'],
    ['2026-11-20t17:03:00z', '2026-11-20T17:03:00Z'],
    ['2026-11-20T17:03:00.250Z', '2026-11-20T17:03:00.250Z'],
    ['2026-11-20T17:03:00,5Z', '2026-11-20T17:03:00.500Z'],
    ['2026-11-20 14:03', '2026-11-20T14:03:00Z'], // no offset: UTC
    ['2026-11-20T14:03:00', '2026-11-20T14:03:00Z'],
    ['2026-11-20 14:03:00 -03:00', '2026-11-20T17:03:00Z'],
    ['2026-11-20', '2026-11-20T00:00:00Z'],
    ['  2026-11-20T14:03:00Z ', '2026-11-20T14:03:00Z'],
    ['2028-02-29T10:00:00Z', '2028-02-29T10:00:00Z'],
  ];
  it.each(readable)('%j is %s', (text, iso) => {
    expect(parseInstant(text)).toBe(at(iso));
  });

  const unreadable = ['', '20/11/2026 14:03', '11/20/2026', 'yesterday', '2026-13-01', '2026-02-30', '2027-02-29', '2026-11-20T24:00', '2026-11-20T14:60', '1763647380000'];
  it.each(unreadable)('%j is not read', (text) => {
    expect(parseInstant(text)).toBeUndefined();
  });
});

describe('last_inbound_at in a list', () => {
  it('sets lastInboundAt, and warns (without rejecting) when the cell cannot be read', async () => {
    const file = fixture('last-inbound.csv');
    const { contacts, warnings, counts } = await load([file]);
    expect(contacts.map((c) => [c.line, c.lastInboundAt])).toEqual([
      [2, Date.parse('2026-11-20T17:03:00Z')],
      [3, Date.parse('2026-11-20T14:03:00Z')],
      [4, Date.parse('2026-11-20T17:03:00.500Z')],
      [5, undefined],
      [6, undefined],
    ]);
    expect(warnings).toEqual([
      {
        kind: 'warning',
        warning: 'last_inbound_at_unreadable',
        file,
        line: 6,
        detail: '"20/11/2026 14:03"',
        message: `${file} line 6: "20/11/2026 14:03" in column "last_inbound_at" is not a date-time such as 2026-11-20T14:03:00-03:00, so this contact's 24-hour window is unknown`,
      },
    ]);
    expect(counts).toMatchObject({ rows: 5, contacts: 5, rejected: 0, warnings: 1 });
  });

  it('sums the warnings up by kind with the first three rows as examples, worded for the plan', async () => {
    const t = await tempDir();
    try {
      const rows = ['ontem', '2026-11-20T14:03:00Z', 'amanhã', '', '??', 'last week', 'n/a'];
      const file = await t.write('contacts.csv', `phone,last_reply
${rows.map((r, i) => `+55119876543${10 + i},${r}`).join('\n')}\n`);
      const { counts, warnings } = await load([file], { columns: { last_inbound_at: 'last_reply' } });
      expect(warnings).toHaveLength(5);
      expect(counts.warnings).toBe(5);
      expect(counts.warningsByKind).toEqual({
        last_inbound_at_unreadable: {
          count: 5,
          examples: [
            { file, line: 2, message: '"ontem"' },
            { file, line: 4, message: '"amanhã"' },
            { file, line: 6, message: '"??"' },
          ],
        },
      });
      expect(describeWarnings(counts.warningsByKind)).toEqual([
        `last_inbound_at unreadable in 5 rows, e.g. ${file} line 2: "ontem"; ${file} line 4: "amanhã"; ${file} line 6: "??"`,
      ]);
    } finally {
      await t.cleanup();
    }
  });

  it('says nothing when no row warned, and "1 row" for one', () => {
    expect(describeWarnings({})).toEqual([]);
    expect(describeWarnings({ last_inbound_at_unreadable: { count: 1, examples: [{ file: 'contacts.csv', line: 4, message: '"ontem"' }] } })).toEqual([
      'last_inbound_at unreadable in 1 row, e.g. contacts.csv line 4: "ontem"',
    ]);
  });

  it('streams the warning just before its contact', async () => {
    const { loadContacts } = await import('../../src/contacts/index.js');
    const kinds: string[] = [];
    for await (const item of loadContacts([fixture('last-inbound.csv')], {}).items) kinds.push(item.kind);
    expect(kinds).toEqual(['contact', 'contact', 'contact', 'contact', 'warning', 'contact']);
  });
});
