/** What the loader streams out, and the tally it keeps. */
import type { Contact, Reject } from './types.js';

/** What a warning is about: one kind today, a list value whose 24-hour window cannot be known. */
export type WarningKind = 'last_inbound_at_unreadable';

/** A row that loads, but with something the user should hear about (an unreadable last_inbound_at). */
export interface LoadWarning {
  kind: 'warning';
  warning: WarningKind;
  file: string;
  line: number;
  /** One sentence naming the file, the line, the value and what follows from it. */
  message: string;
  /** The row's own part, for a summary line: the value as written, quoted, e.g. `"ontem"`. */
  detail: string;
}

export type LoadItem = { kind: 'contact'; contact: Contact } | { kind: 'reject'; reject: Reject } | LoadWarning;

/** One row a warning was about: `message` is its `detail`. */
export interface WarningExample {
  file: string;
  line: number;
  message: string;
}

/** The warnings of one kind: how many, and the first few rows (WARNING_EXAMPLES) as examples. */
export interface WarningSummary {
  count: number;
  examples: WarningExample[];
}

/** Examples kept per warning kind. */
export const WARNING_EXAMPLES = 3;

export interface LoadCounts {
  /** Data rows read (header and blank lines excluded): contacts + rejected. */
  rows: number;
  contacts: number;
  rejected: number;
  /** Rejected rows by reason. */
  byReason: Record<string, number>;
  /** Warning items streamed (each also belongs to a contact), all kinds together. */
  warnings: number;
  /** The same warnings by kind, each with its first examples; a kind that never occurred is absent. */
  warningsByKind: Partial<Record<WarningKind, WarningSummary>>;
}
