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
