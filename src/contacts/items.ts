/** What the loader streams out, and the tally it keeps. */
import type { Contact, Reject } from './types.js';

/** A row that loads, but with something the user should hear about (an unreadable last_inbound_at). */
export interface LoadWarning {
  kind: 'warning';
  file: string;
  line: number;
  message: string;
}

export type LoadItem = { kind: 'contact'; contact: Contact } | { kind: 'reject'; reject: Reject } | LoadWarning;

export interface LoadCounts {
  /** Data rows read (header and blank lines excluded): contacts + rejected. */
  rows: number;
  contacts: number;
  rejected: number;
  /** Rejected rows by reason. */
  byReason: Record<string, number>;
  /** Warning items streamed (each also belongs to a contact). */
  warnings: number;
}
