/** The loader's warnings as lines for people: one a kind, with its count and examples. */
import type { LoadCounts, WarningKind, WarningSummary } from './items.js';

const LABELS: Record<WarningKind, string> = {
  last_inbound_at_unreadable: 'last_inbound_at unreadable',
};

/**
 * `last_inbound_at unreadable in 12 rows, e.g. contacts.csv line 4: "ontem"; contacts.csv line 9: "?"`,
 * one line per kind that occurred.
 */
export function describeWarnings(byKind: LoadCounts['warningsByKind']): string[] {
  const lines: string[] = [];
  for (const kind of Object.keys(LABELS) as WarningKind[]) {
    const summary: WarningSummary | undefined = byKind[kind];
    if (summary === undefined || summary.count === 0) continue;
    const rows = `${summary.count} row${summary.count === 1 ? '' : 's'}`;
    const examples = summary.examples.map((e) => `${e.file} line ${e.line}: ${e.message}`).join('; ');
    lines.push(`${LABELS[kind]} in ${rows}${examples ? `, e.g. ${examples}` : ''}`);
  }
  return lines;
}
