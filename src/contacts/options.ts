/** What the caller may set, and the complete settings the loader works from. */
import { type CountryCode, isSupportedCountry } from 'libphonenumber-js/max';
import type { Delimiter, Format } from './detect.js';
import { InputError } from './errors.js';
import type { KnownPhones } from './known-phone.js';
import type { CsvReadAhead } from './csv-read-ahead.js';

/** Fields read from the column of their own name unless the caller names another. */
export type BaseField = 'phone' | 'name' | 'lastname' | 'email' | 'last_inbound_at';
/** Fields read only when the caller names their column: a list's own "country" column is not taken on trust. */
export type OptInField = 'country' | 'language' | 'opt_in' | 'timezone';
export type Field = BaseField | OptInField;
export const FIELDS: readonly Field[] = ['phone', 'name', 'lastname', 'email', 'last_inbound_at', 'country', 'language', 'opt_in', 'timezone'];

export interface LoaderOptions {
  /** The header of each field's column; each defaults to the field's own name. Matched case-insensitively, trimmed. */
  columns?: {
    phone?: string;
    name?: string;
    lastname?: string;
    email?: string;
    last_inbound_at?: string;
    /** Each row's country (ISO code or a name in English, Portuguese or Spanish): that row's default country. Read only when given. */
    country?: string;
    /** Each row's language tag (es, es_MX, pt-BR): the contact's `language`. Read only when given. */
    language?: string;
    /** Each row's consent cell, kept as written (`Contact.optIn`). Read only when given. */
    opt_in?: string;
    /** Each row's IANA time zone (`Contact.timezone`); a cell that is not one rejects the row. Read only when given. */
    timezone?: string;
  };
  /**
   * The fields whose column the job names in so many words (`LoadedJob.namedColumns`): each must be
   * in the file, even when named after the field itself. Without it, only a column other than the
   * field's own name counts as named (a job fills every column with its default).
   */
  namedColumns?: readonly Field[];
  /**
   * Country whose rules read numbers written without a country code, e.g. 'BR'. Without it only
   * international forms are valid. A row's country cell, when the list has one, comes first.
   */
  defaultCountry?: CountryCode;
  /** Otherwise from the extension: .csv .tsv .json .ndjson .jsonl (and, failing that, from the first character). */
  format?: Format;
  /** Otherwise detected from the header line (an Excel `sep=` line wins). */
  delimiter?: Delimiter;
  /** Reject numbers the metadata knows to be fixed-line (FIXED_LINE_OR_MOBILE passes). */
  requireMobile?: boolean;
  /**
   * JSON and NDJSON: a column the job names must be among the keys of this many first entries of
   * each file (a run that sends as it reads cannot wait for the file's end to find a misnamed key).
   * Without it, only the end of the file tells, as any entry may leave a key out.
   */
  namedKeysWithin?: number;
  /**
   * CSV and TSV: the columns the job's placeholders fill from, each with where the job uses it. A
   * column missing from a file's header stops the load before its first row (every row would be
   * rejected for it); `suggest` names the header most likely meant.
   */
  placeholders?: PlaceholderColumns;
  /**
   * The numbers of contacts the caller settled: a phone cell written as one of them (E.164) is taken
   * as that number without the phone library's parse (known-phone.ts). Not with `requireMobile`,
   * which needs the parse's number type.
   */
  known?: KnownPhones;
  /** CSV and TSV files read ahead in a worker (csv-read-ahead.ts): their rows are taken from it. */
  readAhead?: CsvReadAhead;
}

/** The columns a job's placeholders use, and the closest header to a misspelt one. */
export interface PlaceholderColumns {
  uses: readonly PlaceholderUse[];
  suggest?: (typed: string, known: readonly string[]) => string | undefined;
}

export interface PlaceholderUse {
  /** The column's key: the placeholder's name, trimmed and lower-cased. */
  column: string;
  /** Where the job uses it, for the message: `job.json: message.template.variables["2"]`. */
  where: string;
}

export interface ColumnChoice {
  /** The header as the caller wrote it (for messages). */
  header: string;
  /** trimmed, lower-cased: what headers are compared on. */
  key: string;
  /** Renamed by the caller (a header other than the field's own name): a missing column is then an error. */
  explicit: boolean;
}

export interface Settings {
  /** Every base field has its column; an opt-in field only when the caller named one. */
  columns: Record<BaseField, ColumnChoice> & Record<OptInField, ColumnChoice | undefined>;
  defaultCountry: CountryCode | undefined;
  format: Format | undefined;
  delimiter: Delimiter | undefined;
  namedKeysWithin: number | undefined;
  requireMobile: boolean;
  placeholders: PlaceholderColumns | undefined;
  known: KnownPhones | undefined;
  readAhead: CsvReadAhead | undefined;
}

/** Folds the caller's options over the defaults, once. Throws InputError for a country code libphonenumber does not know. */
export function resolveOptions(options: LoaderOptions): Settings {
  const columns: Settings['columns'] = {
    phone: baseColumn(options, 'phone'),
    name: baseColumn(options, 'name'),
    lastname: baseColumn(options, 'lastname'),
    email: baseColumn(options, 'email'),
    last_inbound_at: baseColumn(options, 'last_inbound_at'),
    country: optInColumn(options, 'country'),
    language: optInColumn(options, 'language'),
    opt_in: optInColumn(options, 'opt_in'),
    timezone: optInColumn(options, 'timezone'),
  };
  let defaultCountry: CountryCode | undefined;
  if (options.defaultCountry !== undefined) {
    const code = String(options.defaultCountry).trim().toUpperCase();
    if (!isSupportedCountry(code)) {
      throw new InputError(
        `default_country "${options.defaultCountry}" is not a country code; use a two-letter ISO code such as BR, US or PT`,
        'job',
      );
    }
    defaultCountry = code;
  }
  return {
    columns,
    defaultCountry,
    format: options.format,
    delimiter: options.delimiter,
    namedKeysWithin: options.namedKeysWithin,
    requireMobile: options.requireMobile ?? false,
    placeholders: options.placeholders,
    known: options.requireMobile ? undefined : options.known,
    readAhead: options.readAhead,
  };
}

function given(options: LoaderOptions, field: Field): string | undefined {
  const header = options.columns?.[field];
  return header !== undefined && header.trim() !== '' ? header : undefined;
}

function baseColumn(options: LoaderOptions, field: BaseField): ColumnChoice {
  const header = given(options, field) ?? field;
  const key = header.trim().toLowerCase();
  // A job fills every column with its default, so only a header other than the field's own name, or
  // a field the caller says the job named, counts as chosen.
  return { header, key, explicit: key !== field || (options.namedColumns?.includes(field) ?? false) };
}

function optInColumn(options: LoaderOptions, field: OptInField): ColumnChoice | undefined {
  const header = given(options, field);
  return header === undefined ? undefined : { header, key: header.trim().toLowerCase(), explicit: true };
}
