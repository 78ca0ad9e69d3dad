import type { CountryCode } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { normalisePhone } from '../../src/contacts/index.js';

describe('normalisePhone: local and international forms to E.164', () => {
  // [default country, as written, E.164]
  const valid: [CountryCode | undefined, string, string][] = [
    // Brazil: national with and without trunk 0 and carrier code, +55, 0055
    ['BR', '(11) 98765-4321', '+5511987654321'],
    ['BR', '11 98765 4321', '+5511987654321'],
    ['BR', '11987654321', '+5511987654321'],
    ['BR', '011 98765-4321', '+5511987654321'], // trunk 0 + area 11, not an international call
    ['BR', '015 11 98765-4321', '+5511987654321'], // trunk 0 + carrier 15 + area 11
    ['BR', '(0xx11) 98765-4321', '+5511987654321'],
    ['BR', '+55 (21) 99123-4567', '+5521991234567'],
    ['BR', '+55 011 98765-4321', '+5511987654321'],
    ['BR', '0055 11 98765-4321', '+5511987654321'], // 00 + country code, although Brazil's own prefix is 00 + carrier
    ['BR', '0055 27 91195-2038', '+5527911952038'], // not South Africa (+27) via carrier 55
    ['BR', '0021 1 415 555 2671', '+14155552671'], // an international call through carrier 21
    ['BR', '0041 44 668 18 00', '+41446681800'], // 00 + Switzerland: read as carrier 41 it is no valid number
    ['BR', '21 3456-7890', '+552134567890'],
    // United States: national forms, +1, and 011 (the US international prefix)
    ['US', '(415) 555-2671', '+14155552671'],
    ['US', '415.555.2671', '+14155552671'],
    ['US', '1-415-555-2671', '+14155552671'],
    ['US', '+1 415 555 2671', '+14155552671'],
    ['US', '011 44 20 7946 0958', '+442079460958'],
    ['US', '011 55 11 98765 4321', '+5511987654321'],
    ['US', '00 44 7400 123456', '+447400123456'],
    // United Kingdom
    ['GB', '07400 123456', '+447400123456'],
    ['GB', '+44 (0)7400 123456', '+447400123456'],
    ['GB', '020 7946 0958', '+442079460958'],
    ['GB', '00 351 912 345 678', '+351912345678'],
    // Germany
    ['DE', '0151 23456789', '+4915123456789'],
    ['DE', '0049 151 23456789', '+4915123456789'],
    ['DE', '030 12345678', '+493012345678'],
    ['DE', '00 55 11 98765 4321', '+5511987654321'],
    // France
    ['FR', '06 12 34 56 78', '+33612345678'],
    ['FR', '06.12.34.56.78', '+33612345678'],
    ['FR', '+33 6 12 34 56 78', '+33612345678'],
    ['FR', '0033 6 12 34 56 78', '+33612345678'],
    // India
    ['IN', '98765 43210', '+919876543210'],
    ['IN', '098765 43210', '+919876543210'],
    ['IN', '+91 98765-43210', '+919876543210'],
    // Mexico, including the retired mobile 1 after +52
    ['MX', '55 1234 5678', '+525512345678'],
    ['MX', '+52 55 1234 5678', '+525512345678'],
    ['MX', '+52 1 55 1234 5678', '+525512345678'],
    ['MX', '00 52 33 1234 5678', '+523312345678'],
    // Spain
    ['ES', '612 34 56 78', '+34612345678'],
    ['ES', '0034 612 345 678', '+34612345678'],
    ['ES', '91 123 45 67', '+34911234567'],
    // Portugal
    ['PT', '912 345 678', '+351912345678'],
    ['PT', '00351 912 345 678', '+351912345678'],
    ['PT', '21 123 4567', '+351211234567'],
    // Nigeria (international prefix 009)
    ['NG', '0803 123 4567', '+2348031234567'],
    ['NG', '009 234 803 123 4567', '+2348031234567'],
    // Argentina: mobile 15 in national form, 9 in international form
    ['AR', '011 15-2345-6789', '+5491123456789'],
    ['AR', '+54 9 11 2345-6789', '+5491123456789'],
    // Without a default country, international forms still work
    [undefined, '+55 11 98765-4321', '+5511987654321'],
    [undefined, '00 44 7400 123456', '+447400123456'],
    // What people and spreadsheets wrap around numbers
    ['BR', 'tel:+5511987654321', '+5511987654321'],
    ['BR', 'TEL:+55-11-98765-4321', '+5511987654321'],
    ['BR', "'11987654321", '+5511987654321'],
    ['BR', "' +55 11 98765-4321", '+5511987654321'],
    ['BR', '="11987654321"', '+5511987654321'],
    ['BR', '  +55 11 98765-4321  ', '+5511987654321'],
    ['BR', '+55\u00a011\u00a098765-4321', '+5511987654321'],
    ['BR', '+55 11 98765-4321 ext. 12', '+5511987654321'],
  ];

  it.each(valid)('%s: %j is %s', (country, text, e164) => {
    const result = normalisePhone(text, country);
    expect(result).toMatchObject({ ok: true, e164 });
  });
});

describe('normalisePhone: what is rejected, and why', () => {
  // [default country, as written, reason, detail contains]
  const invalid: [CountryCode | undefined, string, string, string | RegExp][] = [
    ['BR', '', 'phone_missing', 'empty'],
    ['BR', '   ', 'phone_missing', 'empty'],
    ['BR', "'", 'phone_missing', 'empty'],
    ['BR', '5.5119876E+12', 'phone_mangled_by_spreadsheet', 'scientific notation'],
    ['BR', '5,51E+12', 'phone_mangled_by_spreadsheet', 'scientific notation'],
    ['BR', '1.23e11', 'phone_mangled_by_spreadsheet', 'scientific notation'],
    ['US', '1.4155552671E10', 'phone_mangled_by_spreadsheet', 'format the column as text'],
    ['BR', '5511987654321.0', 'phone_mangled_by_spreadsheet', 'decimal number'],
    ['BR', '123', 'phone_invalid', 'too short for a number in Brazil (+55)'],
    ['BR', '1234567890123456789', 'phone_invalid', 'too long'],
    ['BR', 'abc', 'phone_invalid', 'not a phone number'],
    ['BR', 'n/a', 'phone_invalid', 'not a phone number'],
    ['BR', '+999 1234 5678', 'phone_invalid', 'country code after the + is not one in use'],
    ['BR', '11 1234-5678', 'phone_invalid', 'not a valid number in Brazil (+55)'],
    ['BR', '+55 11 8765-4321', 'phone_invalid', 'old 8-digit mobile'],
    ['US', '(123) 456-7890', 'phone_invalid', 'not a valid number in'],
    ['GB', '07700 900123', 'phone_invalid', 'not a valid number in United Kingdom (+44)'],
    ['BR', '+55 11 98765-4321 / 98765-1234', 'phone_invalid', 'more than one number'],
    [undefined, '11 98765-4321', 'phone_invalid', 'set default_country'],
    [undefined, '(415) 555-2671', 'phone_invalid', 'no default_country is set'],
  ];

  it.each(invalid)('%s: %j is %s', (country, text, reason, detail) => {
    const result = normalisePhone(text, country);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toBe(reason);
    expect(result.detail).toMatch(detail);
  });
});

describe('normalisePhone: number type', () => {
  it('tells mobile from fixed line where the metadata can', () => {
    expect(normalisePhone('(11) 98765-4321', 'BR')).toEqual({ ok: true, e164: '+5511987654321', type: 'MOBILE' });
    expect(normalisePhone('(11) 3456-7890', 'BR')).toEqual({ ok: true, e164: '+551134567890', type: 'FIXED_LINE' });
    expect(normalisePhone('+1 415 555 2671')).toEqual({ ok: true, e164: '+14155552671', type: 'FIXED_LINE_OR_MOBILE' });
  });
});
