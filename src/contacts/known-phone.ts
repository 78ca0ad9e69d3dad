/**
 * A phone cell the caller already knows: written exactly as the E.164 number of a contact the job
 * settled (the number a run normalised and messaged, or tried to), it is that number, read without
 * libphonenumber's parse. The parse is most of the cost of a row; a run going on from a journal
 * with no listing meets a million settled rows before the first one it may send. The number's
 * country is its calling code's when the code is one country's only (+55 is Brazil's); a code
 * countries share (+1, +7, +44) or none holds (+800) leaves the cell to the parse.
 */
import { type CountryCode, getCountries, getCountryCallingCode } from 'libphonenumber-js/max';

/** Whether `e164` is the number of a contact whose phone cell may be taken as written (a contact the job settled). */
export type KnownPhones = (e164: string) => boolean;

/** What the loader reads of a phone: the parse's PhoneNumber has these, and a known cell gives them alone. */
export interface KnownNumber {
  /** E.164. */
  number: string;
  country: CountryCode;
  countryCallingCode: string;
}

/** "+" and digits, no leading zero: a cell written as E.164, as a number the loader normalised reads. */
const E164 = /^\+[1-9]\d{1,14}$/;

/** Calling code → its one country; null when countries share it. Built on first use. */
let soleCountry: Map<string, CountryCode | null> | undefined;

function countryOfCode(code: string): CountryCode | null | undefined {
  if (soleCountry === undefined) {
    soleCountry = new Map();
    for (const country of getCountries()) {
      const cc = getCountryCallingCode(country);
      soleCountry.set(cc, soleCountry.has(cc) ? null : country);
    }
  }
  return soleCountry.get(code);
}

/**
 * The cell's number when it is written as a known contact's E.164 (spaces around it aside) and its
 * calling code is one country's; else undefined (the cell goes to the parse, as any other).
 */
export function knownNumber(cell: string, known: KnownPhones): KnownNumber | undefined {
  const text = cell.trim();
  if (!E164.test(text) || !known(text)) return undefined;
  // Calling codes are 1 to 3 digits and none is the start of another.
  for (let length = 1; length <= 3; length++) {
    const code = text.slice(1, 1 + length);
    const country = countryOfCode(code);
    if (country === undefined) continue;
    return country === null ? undefined : { number: text, country, countryCallingCode: code };
  }
  return undefined;
}
