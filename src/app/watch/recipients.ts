import type { ContactStatus } from '../../checkpoint/index.js';
import { reportCsv, type ReportLayout, type ReportRow } from '../../report/index.js';

/** The statuses a recipient table filters by (report.csv's `status`). */
export const RECIPIENT_STATUSES: readonly ContactStatus[] = ['sent', 'failed', 'in_doubt', 'skipped', 'deferred', 'pending'];

/** Which of a job's report rows a person asks for: a status, and digits the phone holds. */
export interface RecipientFilter {
  status?: ContactStatus;
  /** Digits the phone holds somewhere (`+55 11 9` → 55119); anything else in it is ignored. */
  phone?: string;
}

/** One page of a job's report rows, in report.csv's order. */
export interface RecipientPage {
  rows: ReportRow[];
  /** 1-based. */
  page: number;
  pageSize: number;
  /** Whether a row matches after this page. */
  more: boolean;
}

/** Whether a status names one of report.csv's. */
export function isRecipientStatus(text: string | undefined): text is ContactStatus {
  return text !== undefined && (RECIPIENT_STATUSES as readonly string[]).includes(text);
}

/** The filter as a test of a row. Pure. */
export function matches(filter: RecipientFilter): (row: ReportRow) => boolean {
  const digits = filter.phone?.replace(/\D/g, '') ?? '';
  const status = filter.status;
  return (row) => (status === undefined || row.status === status) && (digits === '' || row.phone.includes(digits));
}

/**
 * Page `page` (1-based) of the rows the filter keeps: the rows are read one at a time and only the
 * page's are kept, so a million-contact job is paged without holding its rows; reading stops one row
 * after the page. Pure.
 */
export function recipientPage(rows: Iterable<ReportRow>, filter: RecipientFilter, page: number, pageSize: number): RecipientPage {
  const keep = matches(filter);
  const first = (Math.max(1, page) - 1) * pageSize;
  const out: ReportRow[] = [];
  let seen = 0;
  for (const row of rows) {
    if (!keep(row)) continue;
    if (seen >= first + pageSize) return { rows: out, page: Math.max(1, page), pageSize, more: true };
    if (seen >= first) out.push(row);
    seen += 1;
  }
  return { rows: out, page: Math.max(1, page), pageSize, more: false };
}

/** report.csv's text of the rows the filter keeps (its columns, its formula-safe cells; the spreadsheet form with `excel`), in pieces. */
export function recipientsCsv(rows: Iterable<ReportRow>, filter: RecipientFilter, layout: ReportLayout, excel = false): Iterable<string> {
  const keep = matches(filter);
  return reportCsv(
    (function* () {
      for (const row of rows) if (keep(row)) yield row;
    })(),
    { ...layout, excel },
  );
}
