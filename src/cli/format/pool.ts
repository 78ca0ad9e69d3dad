import type { NumberStatus } from '../../app/index.js';

/** One line per number of a pool: `number 14: 2 sent, 0 failed; drained in the last run at … (131048): …`. */
export function formatNumbers(numbers: readonly NumberStatus[]): string {
  return numbers
    .map((n) => `  number ${n.channelId}: ${n.sent} sent, ${n.failed} failed${n.drained ? `; drained in the last run at ${n.drained.at} (${n.drained.code}): ${n.drained.error}` : ''}\n`)
    .join('');
}

/** The numbers as `status --json` gives them. */
export function numbersJson(numbers: readonly NumberStatus[]) {
  return numbers.map((n) => ({ channel_id: n.channelId, sent: n.sent, failed: n.failed, drained: n.drained ?? null }));
}
