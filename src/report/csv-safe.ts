/**
 * A cell a spreadsheet would run as a formula, made inert by a leading `'`: one starting with
 * `=`, `-`, `@`, a tab or a carriage return, or with `+` unless only digits follow (an E.164 phone
 * such as `+5511987654321` stays as it is).
 */
export function safeCell(value: string): string {
  if (value === '') return value;
  const first = value[0];
  if (first === '=' || first === '-' || first === '@' || first === '\t' || first === '\r') return `'${value}`;
  if (first === '+' && !/^\+\d+$/.test(value)) return `'${value}`;
  return value;
}

/** A cell as it was before safeCell's formula guard (a leading `'` before = - @ + tab or CR). */
export function unguard(cell: string): string {
  return /^'[=\-@+\t\r]/.test(cell) ? cell.slice(1) : cell;
}

/** The columns that hold a phone or an id: in the spreadsheet form they always open as text. */
const TEXT_COLUMNS: ReadonlySet<string> = new Set(['phone', 'phone_as_written', 'raw_phone', 'conversation_id', 'client_id', 'message_id', 'channel_id']);

/** Digits a spreadsheet shows in full as a number; a longer run of digits it shows as 5,56197E+12 (and past 15 it loses them). */
const SPREADSHEET_DIGITS = 11;

/**
 * A cell for the spreadsheet form (report.xlsx.csv, rejects.xlsx.csv): one a spreadsheet would take
 * for a number and damage — a phone or an id (by its column), a number with a `+`, a leading zero, or
 * more digits than it shows — is written as the text formula `="…"`, which opens as that text;
 * anything else as `safeCell` writes it. Plain CSV never goes through this.
 */
export function spreadsheetCell(value: string, column?: string): string {
  if (value === '') return value;
  const digits = /^\+?\d+$/.test(value);
  const numeric = digits && (value.startsWith('+') || (value.startsWith('0') && value.length > 1) || value.length > SPREADSHEET_DIGITS);
  const named = column !== undefined && TEXT_COLUMNS.has(column) && /\d/.test(value);
  return numeric || named ? `="${value.replaceAll('"', '""')}"` : safeCell(value);
}
