/**
 * A row's country cell → its ISO 3166-1 alpha-2 code: the code itself (`MX`, `mx`), an alpha-3
 * code (`MEX`), or the country's name in English, Portuguese or Spanish (`Mexico`, `México`,
 * `Brasil`), matched case- and accent-insensitively. The names are i18n-iso-countries', with only
 * those three locales registered; the index is built once, on the first name looked up.
 */
import { alpha3ToAlpha2, getNames, registerLocale } from 'i18n-iso-countries/index.js';
import en from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import es from 'i18n-iso-countries/langs/es.json' with { type: 'json' };
import pt from 'i18n-iso-countries/langs/pt.json' with { type: 'json' };
import { type CountryCode, getCountryCallingCode, isSupportedCountry } from 'libphonenumber-js/max';

export type CountryReading = { ok: true; country: CountryCode } | { ok: false; detail: string };

/** The locales whose country names a cell may hold. */
const LOCALES = [en, pt, es] as const;

/** Normalised name → the countries it names (more than one: an ambiguous name such as "Congo"). */
let names: Map<string, CountryCode[]> | undefined;

function nameIndex(): Map<string, CountryCode[]> {
  if (names !== undefined) return names;
  const index = new Map<string, CountryCode[]>();
  for (const locale of LOCALES) {
    registerLocale(locale);
    for (const [code, written] of Object.entries(getNames(locale.locale, { select: 'all' }))) {
      if (!isSupportedCountry(code)) continue; // Antarctica, Bouvet Island…: no numbers of their own
      for (const name of written) {
        const key = nameKey(name);
        const known = index.get(key);
        if (known === undefined) index.set(key, [code]);
        else if (!known.includes(code)) known.push(code);
      }
    }
  }
  names = index;
  return index;
}

/** "  Côte d'Ivoire " → "cote d ivoire": no accents, no case, punctuation and spaces as one space. */
export function nameKey(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Reads one country cell (not empty). Pure; use `CountryCells` on the hot path. */
export function readCountry(cell: string): CountryReading {
  const text = cell.trim();
  if (/^[A-Za-z]{2}$/.test(text)) {
    const code = text.toUpperCase();
    if (isSupportedCountry(code)) return { ok: true, country: code };
  } else if (/^[A-Za-z]{3}$/.test(text)) {
    const code = alpha3ToAlpha2(text.toUpperCase());
    if (code !== undefined && isSupportedCountry(code)) return { ok: true, country: code };
  }
  const found = nameIndex().get(nameKey(text));
  if (found !== undefined && found.length === 1 && found[0] !== undefined) return { ok: true, country: found[0] };
  if (found !== undefined) {
    return {
      ok: false,
      detail: `the country column says "${clip(text)}", which names more than one country (${found.join(', ')}); write the ISO code instead`,
    };
  }
  return {
    ok: false,
    detail: `the country column says "${clip(text)}", which is not a country; write an ISO code such as MX or the country's name in English, Portuguese or Spanish`,
  };
}

/** Most lists name a handful of countries: past this many distinct cells, new ones are read without being kept. */
const MAX_CACHED = 10_000;

/** `readCountry` once per distinct cell of a load (rows of 80k a second repeat the same few values). */
export class CountryCells {
  private readonly seen = new Map<string, CountryReading>();

  read(cell: string): CountryReading {
    let reading = this.seen.get(cell);
    if (reading === undefined) {
      reading = readCountry(cell);
      if (this.seen.size < MAX_CACHED) this.seen.set(cell, reading);
    }
    return reading;
  }
}

let regionNames: Intl.DisplayNames | undefined;

/** "Mexico (MX, +52)". */
export function countryLabel(country: CountryCode): string {
  regionNames ??= new Intl.DisplayNames(['en'], { type: 'region' });
  return `${regionNames.of(country) ?? country} (${country}, +${getCountryCallingCode(country)})`;
}

/**
 * Whether a number's own country code disagrees with the row's country cell, and the reject's
 * detail if so. Calling codes are compared, not countries: a national number read by the cell's
 * country always agrees, and +1 (or +7, +44…) is shared by several countries that dial alike.
 */
export function countryMismatch(
  number: { number: string; country?: CountryCode | undefined; countryCallingCode: string },
  cell: CountryCode,
): string | undefined {
  if (number.countryCallingCode === getCountryCallingCode(cell)) return undefined;
  const own = number.country !== undefined ? countryLabel(number.country) : `+${number.countryCallingCode}, no single country`;
  return `the number ${number.number} is from ${own} but the country column says ${countryLabel(cell)}; correct the country or the number`;
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}
