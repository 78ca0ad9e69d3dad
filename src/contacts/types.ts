import type { CountryCode } from 'libphonenumber-js/max';

/** A usable contact: one row of a contact list, its phone normalised to E.164. */
export interface Contact {
  /** The file the row came from (as given to the loader). */
  file: string;
  /** 1-based line of the file where the row starts (the header is line 1 of a CSV). */
  line: number;
  /** E.164: `+` and digits. The contact's one key from the loader to the report. */
  phone: string;
  /**
   * The phone's country (ISO 3166-1 alpha-2), from the normalised number, not from any column:
   * `MX` for +52…. Absent for numbers of no single country (+800, +882…).
   */
  country?: CountryCode;
  /** The row's language cell normalised to `es` or `es_MX`, when the job names a language column and the cell is not empty. */
  language?: string;
  /** The row's consent cell as written (trimmed), when the job names an opt-in column and the cell is not empty. */
  optIn?: string;
  /** The row's IANA time zone, canonical (`America/Sao_Paulo`), when the job names a time-zone column and the cell is not empty. */
  timezone?: string;
  name?: string;
  lastname?: string;
  email?: string;
  /** Epoch milliseconds of the contact's last inbound message, when the list knows it. */
  lastInboundAt?: number;
  /**
   * Every column of the row, keyed by its header trimmed and lower-cased, plus the mapped
   * fields under their canonical names (`phone` = E.164, `name`, `lastname`, `email`).
   * Placeholders `{{x}}` render from here.
   */
  vars: Record<string, string>;
  /** The row as written (its file's header, its cells, the phone cell), so a later reject keeps the original columns. */
  row?: ContactRow;
}

export interface ContactRow {
  headers: readonly string[];
  cells: readonly string[];
  rawPhone: string;
}

export type RejectReason =
  | 'phone_missing'
  | 'phone_invalid'
  | 'phone_mangled_by_spreadsheet'
  | 'phone_not_mobile'
  /** The number's own country code is not the country cell's. */
  | 'phone_country_mismatch'
  /** The country cell is neither an ISO code nor a country name this reads. */
  | 'unknown_country'
  /** The language cell is not a language tag such as es, es_MX or pt-BR. */
  | 'unknown_language'
  /** The time-zone cell is not an IANA time zone such as America/Sao_Paulo. */
  | 'unknown_timezone'
  | 'duplicate'
  | 'ragged_row'
  | 'not_an_object'
  | 'text_too_long'
  | `missing_variable:${string}`;

/** A row that will never be sent, and why. Written to rejects.csv. */
export interface Reject {
  file: string;
  line: number;
  /** The phone cell as written in the file ('' when absent). */
  rawPhone: string;
  reason: RejectReason;
  /** One human sentence, e.g. "same phone as line 12". */
  detail: string;
  /** The original columns of the row, header → cell, in file order. */
  raw: Record<string, string>;
}
