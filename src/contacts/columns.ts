/** Column mapping: which cell holds each field, and the keys the row's cells take in `vars`. */
import { InputError } from './errors.js';
import { FIELDS, type Field, type Settings } from './options.js';

export interface Mapping {
  /** The headers as written in the file, in file order. */
  headers: readonly string[];
  /** For each column, its key in `vars` (header trimmed and lower-cased), or undefined for an empty or repeated header. */
  varKeys: readonly (string | undefined)[];
  /** Index of each field's column, -1 when the file has none. */
  phone: number;
  name: number;
  lastname: number;
  email: number;
  lastInboundAt: number;
  /** -1 also when the caller named no country or language column. */
  country: number;
  language: number;
  optIn: number;
  timezone: number;
}

export function mapColumns(headers: readonly string[], settings: Settings): Mapping {
  const varKeys: (string | undefined)[] = [];
  const firstIndex = new Map<string, number>();
  for (const [i, header] of headers.entries()) {
    const key = header.trim().toLowerCase();
    if (key === '' || firstIndex.has(key)) {
      varKeys.push(undefined);
    } else {
      firstIndex.set(key, i);
      varKeys.push(key);
    }
  }
  const find = (field: Field): number => {
    const choice = settings.columns[field];
    return choice === undefined ? -1 : (firstIndex.get(choice.key) ?? -1);
  };
  return {
    headers,
    varKeys,
    phone: find('phone'),
    name: find('name'),
    lastname: find('lastname'),
    email: find('email'),
    lastInboundAt: find('last_inbound_at'),
    country: find('country'),
    language: find('language'),
    optIn: find('opt_in'),
    timezone: find('timezone'),
  };
}

const INDEX_OF: Record<Field, (m: Mapping) => number> = {
  phone: (m) => m.phone,
  name: (m) => m.name,
  lastname: (m) => m.lastname,
  email: (m) => m.email,
  last_inbound_at: (m) => m.lastInboundAt,
  country: (m) => m.country,
  language: (m) => m.language,
  opt_in: (m) => m.optIn,
  timezone: (m) => m.timezone,
};

/**
 * Throws InputError when the phone column is missing, or a column the caller named
 * explicitly (`fromJson` skips those: JSON objects may leave out empty keys, so `checkNamedKeys`
 * checks them once the whole file is read).
 */
export function checkColumns(mapping: Mapping, settings: Settings, file: string, line: number, fromJson = false): void {
  for (const field of FIELDS) {
    const choice = settings.columns[field];
    if (choice === undefined) continue;
    if (field !== 'phone' && (fromJson || !choice.explicit)) continue;
    if (INDEX_OF[field](mapping) >= 0) continue;
    const wanted = choice.header;
    const listed = listColumns(mapping.headers);
    const what = fromJson ? 'key' : 'column';
    let fix = `set columns.${field} in the job to the right ${fromJson ? 'key' : 'header'}`;
    if (field === 'phone') {
      const likely = mapping.headers.find((h) => PHONE_LIKE.test(h) && h.trim() !== '');
      if (!fromJson && looksLikeData(mapping.headers)) {
        fix = 'the first line looks like a contact rather than a header, so add a header line such as phone,name';
      } else if (likely !== undefined) {
        fix += `, perhaps "${likely.trim()}"`;
      }
    } else {
      fix += ' or leave it out';
    }
    const place = fromJson ? `${file} line ${line}` : file;
    throw new InputError(`${place}: no ${what} "${wanted}" (${what}s are: ${listed}); ${fix}`, file, line);
  }
}

/**
 * CSV and TSV: throws InputError for the first placeholder whose column the header lacks (every row
 * would be rejected for it), naming where the job uses it and the closest header.
 */
export function checkPlaceholderColumns(mapping: Mapping, settings: Settings, file: string, line: number): void {
  const placeholders = settings.placeholders;
  if (placeholders === undefined) return;
  const filled = new Set(mapping.varKeys.filter((k): k is string => k !== undefined));
  filled.add('phone');
  if (mapping.name >= 0) filled.add('name');
  if (mapping.lastname >= 0) filled.add('lastname');
  if (mapping.email >= 0) filled.add('email');
  for (const use of placeholders.uses) {
    if (filled.has(use.column)) continue;
    const known = mapping.headers.map((h) => h.trim()).filter((h) => h !== '');
    const likely = placeholders.suggest?.(use.column, known);
    const fix = likely !== undefined ? `did you mean {{${likely.toLowerCase()}}}?` : `add the column to the list or change the placeholder`;
    throw new InputError(
      `${use.where} uses {{${use.column}}}, but ${file} has no column "${use.column}" (columns are: ${listColumns(mapping.headers)}); ${fix}`,
      file,
      line,
    );
  }
}

/** JSON and NDJSON: the fields some entry has had a key for, and the keys seen (for the message). */
export interface KeysSeen {
  fields: Set<Field>;
  /** Key trimmed and lower-cased → as first written; at most MAX_KEYS_SEEN. */
  keys: Map<string, string>;
}

const MAX_KEYS_SEEN = 1000;

export function keysSeen(): KeysSeen {
  return { fields: new Set(), keys: new Map() };
}

/** Notes the fields and keys of an entry's mapping. */
export function noteKeys(seen: KeysSeen, mapping: Mapping): void {
  for (const field of FIELDS) if (INDEX_OF[field](mapping) >= 0) seen.fields.add(field);
  for (const header of mapping.headers) {
    if (seen.keys.size >= MAX_KEYS_SEEN) break;
    const key = header.trim().toLowerCase();
    if (!seen.keys.has(key)) seen.keys.set(key, header.trim());
  }
}

/**
 * JSON and NDJSON, after the last entry: throws InputError for a column the caller named that no
 * entry had. (An entry may leave out a key whose value is empty, so the first entry cannot tell.)
 */
export function checkNamedKeys(seen: KeysSeen, settings: Settings, file: string, within?: number): void {
  for (const field of FIELDS) {
    const column = settings.columns[field];
    if (field === 'phone' || !column?.explicit || seen.fields.has(field)) continue;
    const wanted = column.header;
    const which = within === undefined ? 'no entry' : `none of the first ${within.toLocaleString('en-US')} entries`;
    throw new InputError(
      `${file}: ${which} has the key "${wanted}" (keys are: ${listColumns([...seen.keys.values()])}); set columns.${field} in the job to the right key or leave it out`,
      file,
    );
  }
}

const PHONE_LIKE = /phone|fone|tel|cel|mobile|m[oó]vil|whats|zap|handy|n[uú]mero|number/i;

function looksLikeData(headers: readonly string[]): boolean {
  return headers.some((h) => (h.match(/\d/g)?.length ?? 0) >= 8);
}

function listColumns(headers: readonly string[]): string {
  const shown = headers.slice(0, 20).map((h) => (h.trim() === '' ? '""' : h.trim()));
  if (headers.length === 0) return '(none)';
  return headers.length > 20 ? `${shown.join(', ')}, … ${headers.length - 20} more` : shown.join(', ');
}

/**
 * The row as the file had it, header → cell in file order: cells beyond the header (or under
 * an empty or repeated header) are "column N"; headers beyond a short row's cells are left out.
 */
export function rawOf(headers: readonly string[], cells: readonly string[]): Record<string, string> {
  const raw: Record<string, string> = {};
  for (const [i, cell] of cells.entries()) {
    let key = headers[i] ?? '';
    if (key === '' || Object.hasOwn(raw, key)) key = `column ${i + 1}`;
    raw[key] = cell;
  }
  return raw;
}
