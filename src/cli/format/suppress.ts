import type { ImportOutcome, SuppressOutcome } from '../../app/index.js';
import type { SuppressionEntry } from '../../checkpoint/index.js';

/** How many unreadable lines of an import are named one by one. */
const SHOWN = 10;

export function formatAdded(outcome: SuppressOutcome, location: string): string {
  const lines = [`suppressed ${outcome.added.length} phone(s) in ${location}`];
  for (const e of outcome.already) lines.push(`  ${e.phone} was already on the list (${e.source}: ${e.reason})`);
  return `${lines.join('\n')}\n`;
}

export function formatRemoved(result: { removed: string[]; notListed: string[] }): string {
  const lines = [`removed ${result.removed.length} phone(s) from the suppression list`];
  for (const phone of result.notListed) lines.push(`  ${phone} was not on the list`);
  return `${lines.join('\n')}\n`;
}

export function formatImported(file: string, outcome: ImportOutcome): string {
  const lines = [`${file}: ${outcome.added.length} phone(s) suppressed, ${outcome.already.length} already on the list, ${outcome.unreadable.length} line(s) without a usable number`];
  for (const u of outcome.unreadable.slice(0, SHOWN)) lines.push(`  line ${u.line}: "${u.text}": ${u.detail}`);
  if (outcome.unreadable.length > SHOWN) lines.push(`  … ${outcome.unreadable.length - SHOWN} more`);
  return `${lines.join('\n')}\n`;
}

/** One line per entry: phone, source, time, reason. */
export function formatList(entries: readonly SuppressionEntry[], location: string): string {
  if (entries.length === 0) return `the suppression list of ${location} is empty\n`;
  const lines = [`${'PHONE'.padEnd(16)} ${'SOURCE'.padEnd(13)} ${'SINCE'.padEnd(24)} REASON`];
  for (const e of entries) lines.push(`${e.phone.padEnd(16)} ${e.source.padEnd(13)} ${e.at.padEnd(24)} ${e.reason}`);
  lines.push(`${entries.length} phone(s) suppressed in ${location}`);
  return `${lines.join('\n')}\n`;
}
