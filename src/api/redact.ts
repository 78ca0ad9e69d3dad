/**
 * C5: the integration token never leaves the client in anything the platform sent back, however the
 * platform wrote it: raw, JSON-escaped (`\/`, `\u002f`, any character as `\uXXXX`), URL-encoded
 * (`%2F`, `%2f`, double-encoded `%252F`, a `+` read as a space or `%20`), or a mix of these, one
 * character at a time.
 */

import { parseBody } from './envelope.js';

/** What every form of the token becomes. */
export const REDACTED = '[redacted]';

/** A function that masks every form of `token` in a text; the identity for an empty token. */
export function makeRedactor(token: string): (text: string) => string {
  if (token === '') return (text) => text;
  const pattern = new RegExp([...token].map((c) => `(?:${charForms(c).join('|')})`).join(''), 'g');
  return (text) => (text === '' ? text : text.replace(pattern, REDACTED));
}

/**
 * A body text parsed (`parseBody`) with every string in it masked. A text without any backslash holds
 * each of its strings (keys too) as written, so when no form of the token occurs in the text no string
 * of it can hold one, and the parsed value is returned as it is, without a masked copy.
 */
export function redactedBody(text: string, redact: (text: string) => string): unknown {
  const parsed = parseBody(text);
  if (!text.includes('\\') && redact(text) === text) return parsed;
  return redactValue(parsed, redact);
}

/** A parsed body with every string in it (keys too) masked; other values as they are. */
export function redactValue(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item: unknown) => redactValue(item, redact));
  if (value !== null && typeof value === 'object') {
    // fromEntries defines keys as data properties: a "__proto__" key stays a key, not a prototype.
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k), redactValue(v, redact)]));
  }
  return value;
}

/** The regular-expression alternatives one character of the token can be written as. */
function charForms(c: string): string[] {
  const forms = new Set<string>([escapeRegExp(c), jsonUnicode(c)]);
  const short = JSON_SHORT[c];
  if (short !== undefined) forms.add(escapeRegExp(short));
  const encoded = percentEncoded(c);
  forms.add(encoded);
  forms.add(encoded.replaceAll('%', '%25')); // encoded twice
  forms.add(encoded.replaceAll('%', '\\\\u0025')); // the percent sign JSON-escaped
  if (c === '+') for (const space of SPACE_FORMS) forms.add(space); // a + that went through form decoding
  if (c === ' ') forms.add('\\+');
  return [...forms];
}

/** The short JSON escapes: `\/` is the one platforms use on tokens; the rest for completeness. */
const JSON_SHORT: Record<string, string> = {
  '/': '\\/',
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/** A space as text, URL-encoded (once or twice) or JSON-escaped. */
const SPACE_FORMS = [' ', '%20', '%2520', '\\\\u0020', '\\\\u002520'];

/** `\uXXXX` for each UTF-16 unit of c, hex digits in either case. */
function jsonUnicode(c: string): string {
  let out = '';
  for (let i = 0; i < c.length; i++) out += `\\\\u${hexPattern(c.charCodeAt(i).toString(16).padStart(4, '0'))}`;
  return out;
}

/** `%XX` for each UTF-8 byte of c, hex digits in either case. */
function percentEncoded(c: string): string {
  let out = '';
  for (const byte of Buffer.from(c, 'utf8')) out += `%${hexPattern(byte.toString(16).padStart(2, '0'))}`;
  return out;
}

/** Hex digits matched in either case: "2f" → "2[fF]". */
function hexPattern(hex: string): string {
  return [...hex].map((d) => (/[a-f]/i.test(d) ? `[${d.toLowerCase()}${d.toUpperCase()}]` : d)).join('');
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}
