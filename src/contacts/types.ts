/** A usable contact: one row of a contact list, its phone normalised to E.164. */
export interface Contact {
  /** The file the row came from (as given to the loader). */
  file: string;
  /** 1-based line of the file where the row starts (the header is line 1 of a CSV). */
  line: number;
  /** E.164: `+` and digits. The contact's one key from the loader to the report. */
  phone: string;
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
