/**
 * How the state table and the listing key a phone: an E.164 number (`+`, a digit 1–9, up to 14 more
 * digits) as its number, any other key kept whole as written, and each found again by the text it was
 * given; the listing's texts (a name, a phone as written) read back as they were added.
 */
import { describe, expect, it } from 'vitest';
import { ContactListing, StateTable } from '../../src/checkpoint/backends.js';
import { replay } from '../../src/checkpoint/replay.js';
import { attempt, sent } from './helpers.js';

const E164 = ['+1', '+7', '+5511987654321', '+123456789012345', '+999999999999999'];
const OTHER = ['+0123', '+', '', '5511987654321', '+1234567890123456', '+55 11 98765-4321', '+\u0661\u0662\u0663', '+55119x', ' +5511987654321', '+5511987654321\n'];

describe('the keys of the state table and the listing', () => {
  it('finds each phone again by the text it was given, an E.164 number and any other key alike', () => {
    const table = new StateTable(4);
    const keys = [...E164, ...OTHER];
    const states = replay(keys.flatMap((phone, i) => (i % 2 === 0 ? [attempt(phone)] : [attempt(phone), sent(phone, i)])));
    for (const [phone, state] of states) table.set(phone, state);
    expect(table.size).toBe(keys.length);
    for (const phone of keys) {
      expect(table.get(phone), JSON.stringify(phone)).toEqual(states.get(phone));
      expect(table.statusOf(phone), JSON.stringify(phone)).toBe(states.get(phone)?.status);
    }
    expect(new Set(table.keys())).toEqual(new Set(keys));
    expect(table.has('+5511987654322')).toBe(false);
    expect(table.statusOf('+05511987654321')).toBeUndefined();
  });

  it('gives back each listed contact\'s name and phone as written as they were added: accents, emoji, long texts, a NUL made U+FFFD', () => {
    const texts = ['Ana', '', 'José Ünal', 'Zoë 👩‍💻 da Silva', 'x'.repeat(65), `${'é'.repeat(40)}a`, 'A\u0000B', '(11) 9 8765-4321', 'lone \ud800 half'];
    const listing = new ContactListing(1);
    texts.forEach((text, i) => listing.add({ phone: `+5511987654${String(300 + i)}`, line: i + 2, name: text, phoneAsWritten: texts[texts.length - 1 - i] ?? '' }));
    // As UTF-8 keeps them: a NUL inside a cell is U+FFFD, a lone surrogate the replacement character.
    const kept = (text: string) => Buffer.from(text.replaceAll('\u0000', '\uFFFD'), 'utf8').toString('utf8');
    texts.forEach((text, i) => {
      expect(listing.at(i)).toEqual({ phone: `+5511987654${String(300 + i)}`, line: i + 2, name: kept(text), phoneAsWritten: kept(texts[texts.length - 1 - i] ?? '') });
    });
    expect(ContactListing.fromColumns(listing.columns()).at(3)).toEqual(listing.at(3));
  });
});
