/**
 * Phone normalisation to E.164, pure. libphonenumber-js with full metadata decides validity;
 * this file unwraps what spreadsheets and people add around a number, refuses numbers a
 * spreadsheet has mangled rather than guess, adds the few readings libphonenumber does not
 * make (`00` + country code everywhere, Brazil's `0xx`, Mexico's retired mobile `1`), and
 * turns every failure into a reason a person can act on. One libphonenumber parse per valid
 * row; the other readings run only for numbers that start with `00` or fail the first one.
 */
import {
  type CountryCode,
  type PhoneNumber,
  ParseError,
  getCountryCallingCode,
  parsePhoneNumberWithError,
  validatePhoneNumberLength,
} from 'libphonenumber-js/max';
import type { RejectReason } from './types.js';

export type PhoneResult =
  | { ok: true; e164: string; type?: string }
  | { ok: false; reason: RejectReason; detail: string };

export type PhoneFailure = Extract<PhoneResult, { ok: false }>;

type ParseCode = 'NOT_A_NUMBER' | 'INVALID_COUNTRY' | 'TOO_SHORT' | 'TOO_LONG';

const MISSING: PhoneFailure = { ok: false, reason: 'phone_missing', detail: 'the phone cell is empty' };
const SCIENTIFIC_NOTATION: PhoneFailure = {
  ok: false,
  reason: 'phone_mangled_by_spreadsheet',
  detail: 'a spreadsheet turned this phone into a number in scientific notation and its last digits are lost; format the column as text and export the list again',
};
const DECIMAL_NUMBER: PhoneFailure = {
  ok: false,
  reason: 'phone_mangled_by_spreadsheet',
  detail: 'a spreadsheet turned this phone into a decimal number (ending in .0), which also drops a leading + or 0; format the column as text and export the list again',
};
/** 5.5119876E+12, 5,51E+12, 1.23e11: what a spreadsheet shows after reading a phone as a number. */
const SCIENTIFIC = /^[+-]?\d+(?:[.,]\d+)?\s*[eE]\s*\+?\d+$/;
/** Brazil's `0xx` before the area code: `xx` stands for the carrier code a caller would choose. */
const OXX = /0\s*xx\s*/i;
/** Two numbers in one cell: "98765-4321 / 98765-1234", "…; …", "… ou …". */
const TWO_NUMBERS = /\d[\s)]*(?:[/;|,]|\bou\b|\bor\b|\be\b)\s*[+(]?\d/i;
/** Starts with 00, spaces or punctuation allowed between. */
const DOUBLE_ZERO = /^0\D{0,3}0/;
/** 5511987654321.0: a phone that went through a float column. */
const DECIMAL = /^\+?\d{6,}[.,]0+$/;

const NO_COUNTRY = { extract: false } as const;
const optionsByCountry = new Map<CountryCode, { defaultCountry: CountryCode; extract: false }>();
function parseOptions(defaultCountry: CountryCode | undefined) {
  if (defaultCountry === undefined) return NO_COUNTRY;
  let options = optionsByCountry.get(defaultCountry);
  if (options === undefined) {
    options = { defaultCountry, extract: false };
    optionsByCountry.set(defaultCountry, options);
  }
  return options;
}

/**
 * A phone as written in a list → E.164, or why not. International forms (`+`, `00`, or the
 * default country's own international prefix such as `011` from the US) keep their own
 * country; national forms are read by the default country's rules, trunk prefix included
 * (in Brazil `011 98765-4321` is +5511987654321). `type` is libphonenumber's number type.
 */
export function normalisePhone(text: string, defaultCountry?: CountryCode): PhoneResult {
  const pn = parsePhone(text, defaultCountry);
  return isFailure(pn) ? pn : { ok: true, e164: pn.number, type: pn.getType() };
}

/** normalisePhone for the loader: the valid number itself (`.number` is E.164, `.getType()` on demand) or why not, so a row allocates no result of its own. */
export function parsePhone(text: string, defaultCountry: CountryCode | undefined): PhoneNumber | PhoneFailure {
  let t = text.trim();
  if (t === '') return MISSING;
  const c0 = t.charCodeAt(0);
  // Fast path: a cell that starts with + ( or a digit needs none of the unwrapping below.
  if (!(c0 === 43 || c0 === 40 || (c0 >= 48 && c0 <= 57))) {
    t = unwrap(t);
    if (t === '') return MISSING;
  }
  if (SCIENTIFIC.test(t)) return SCIENTIFIC_NOTATION;
  if (DECIMAL.test(t)) return DECIMAL_NUMBER;

  if (defaultCountry !== undefined && DOUBLE_ZERO.test(t)) {
    const own = ownCountry(t, defaultCountry);
    if (own !== undefined) return own;
  }
  const first = attempt(t, defaultCountry);
  if (typeof first !== 'string' && first.isValid()) return first;
  return retry(t, first, defaultCountry) ?? { ok: false, reason: 'phone_invalid', detail: whyInvalid(t, first, defaultCountry) };
}

export function isFailure<T extends object>(result: T | PhoneFailure): result is PhoneFailure {
  return (result as PhoneFailure).ok === false;
}

/** Removes what a spreadsheet or a person wraps around a number: `'`, `tel:`, `="…"`. */
function unwrap(text: string): string {
  let t = text;
  if (t.startsWith("'")) t = t.slice(1).trim();
  if (t.length > 4 && t.slice(0, 4).toLowerCase() === 'tel:') t = t.slice(4).trim();
  if (t.startsWith('="') && t.endsWith('"') && t.length >= 3) t = t.slice(2, -1).trim();
  return t;
}

/**
 * `00` + the default country's own calling code (`0055 27 91195-2038` in a Brazilian list) is
 * that country's number written in international form. libphonenumber reads the default
 * country's international prefix instead, and Brazil's is `00` + a carrier code, which can
 * make `0055 27 …` a valid South African number (+27, via carrier 55). So this reading goes
 * first.
 */
function ownCountry(text: string, defaultCountry: CountryCode): PhoneNumber | undefined {
  const digits = text.replace(/\D/g, '');
  if (!digits.startsWith(`00${getCountryCallingCode(defaultCountry)}`)) return undefined;
  const pn = attempt('+' + digits.slice(2), undefined);
  return typeof pn !== 'string' && pn.isValid() ? pn : undefined;
}

function attempt(text: string, defaultCountry: CountryCode | undefined): PhoneNumber | ParseCode {
  try {
    return parsePhoneNumberWithError(text, parseOptions(defaultCountry));
  } catch (err) {
    if (err instanceof ParseError) return err.message as ParseCode;
    throw err;
  }
}

/**
 * Second readings, tried only when the first gave no valid number:
 * - `00` + country code: the international prefix of most of the world, which libphonenumber
 *   reads only where it is the default country's own (Brazil's is `00` + a carrier code, so
 *   `0055 11 98765-4321` fails there; from the US, `00 44 …` fails);
 * - Mexico's retired mobile `1` after +52 (`+52 1 55 1234 5678`), still common in old lists;
 * - Brazil's old `0xx11` (trunk 0, then a placeholder for the carrier code), as in `(0xx11) 98765-4321`.
 */
function retry(text: string, first: PhoneNumber | ParseCode, defaultCountry: CountryCode | undefined): PhoneNumber | undefined {
  if (OXX.test(text)) {
    const pn = attempt(text.replace(OXX, '0'), defaultCountry);
    if (typeof pn !== 'string' && pn.isValid()) return pn;
  }
  if (!text.startsWith('+')) {
    const digits = text.replace(/\D/g, '');
    if (digits.startsWith('00') && digits.length > 4) {
      const pn = attempt('+' + digits.slice(2), undefined);
      if (typeof pn !== 'string' && pn.isValid()) return fixMexico(pn) ?? pn;
    }
  }
  if (typeof first !== 'string') return fixMexico(first);
  return undefined;
}

function fixMexico(pn: PhoneNumber): PhoneNumber | undefined {
  if (pn.countryCallingCode !== '52' || pn.nationalNumber.length !== 11 || !pn.nationalNumber.startsWith('1')) return undefined;
  const fixed = attempt('+52' + pn.nationalNumber.slice(1), undefined);
  return typeof fixed !== 'string' && fixed.isValid() ? fixed : undefined;
}

function whyInvalid(text: string, first: PhoneNumber | ParseCode, defaultCountry: CountryCode | undefined): string {
  const international = text.startsWith('+') || text.startsWith('00');
  if (TWO_NUMBERS.test(text) && (text.match(/\d/g)?.length ?? 0) >= 16) {
    return 'the cell seems to hold more than one number; keep one number a row';
  }
  switch (first) {
    case 'NOT_A_NUMBER':
      return 'not a phone number';
    case 'TOO_SHORT':
      return 'too short to be a phone number';
    case 'TOO_LONG':
      return 'too long to be a phone number';
    case 'INVALID_COUNTRY':
      if (!international && defaultCountry === undefined) {
        return 'written without a country code and no default_country is set; write it as +<country code><number> or set default_country in the job';
      }
      return text.startsWith('+')
        ? 'the country code after the + is not one in use'
        : 'the country code after the international prefix is not one in use';
  }
  const where = countryLabel(first);
  const length = validatePhoneNumberLength(first.number);
  if (length === 'TOO_SHORT') return `too short for a number in ${where}`;
  if (length === 'TOO_LONG') return `too long for a number in ${where}`;
  if (length === 'INVALID_LENGTH') return `not the right length for a number in ${where}`;
  const national = first.nationalNumber;
  if (first.countryCallingCode === '55' && national.length === 10 && /^[1-9]{2}[6-9]/.test(national)) {
    return `not a valid number in ${where}: it looks like an old 8-digit mobile, and Brazilian mobiles have 9 digits after the area code (add the 9)`;
  }
  return `not a valid number in ${where}`;
}

let regionNames: Intl.DisplayNames | undefined;
const labels = new Map<string, string>();
/** "Brazil (+55)", or "+1" when the calling code alone does not tell the country. */
function countryLabel(pn: PhoneNumber): string {
  if (pn.country === undefined) return `+${pn.countryCallingCode}`;
  let label = labels.get(pn.country);
  if (label === undefined) {
    regionNames ??= new Intl.DisplayNames(['en'], { type: 'region' });
    label = `${regionNames.of(pn.country) ?? pn.country} (+${pn.countryCallingCode})`;
    labels.set(pn.country, label);
  }
  return label;
}
