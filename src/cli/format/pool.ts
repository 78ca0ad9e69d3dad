import type { NumberStatus, PoolNumberFigures } from '../../app/index.js';
import { count, decimal } from '../../locale/people.js';
import { formatStamp, readers, type Readers } from './time.js';

/** One line per number of a pool: `number 14: 2 sent, 0 failed; drained in the last run at 2026-11-25 14:20:03 Europe/Lisbon (131048): …`. */
export function formatNumbers(numbers: readonly NumberStatus[], r: Readers): string {
  const p = readers(r);
  return numbers
    .map((n) => {
      const drained = n.drained ? `; drained in the last run at ${formatStamp(n.drained.at, r)} (${n.drained.code}): ${n.drained.error}` : '';
      const reached = n.reachedPerSecond !== undefined ? `, ${decimal(p, n.reachedPerSecond)}/s reached in the last run` : '';
      return `  number ${n.channelId}: ${count(p, n.sent)} sent, ${count(p, n.failed)} failed${reached}${drained}\n`;
    })
    .join('');
}

/** The numbers as `status --json` gives them. */
export function numbersJson(numbers: readonly NumberStatus[]) {
  return numbers.map((n) => ({ channel_id: n.channelId, sent: n.sent, failed: n.failed, rate_reached_per_second: n.reachedPerSecond ?? null, drained: n.drained ?? null }));
}

/** One line per number of a pool at a run's end: this run's first messages from it, its rate, and a drain with when and why. */
export function formatRunNumbers(numbers: readonly PoolNumberFigures[], r: Readers): string[] {
  const p = readers(r);
  return numbers.map((n) => {
    const drained = n.drained ? `; drained at ${formatStamp(n.drained.at, r)} (${n.drained.code}): ${n.drained.error}; its contacts not sent went from the other numbers` : '';
    const reached = n.reachedPerSecond !== undefined ? `${decimal(p, n.reachedPerSecond)}/s reached (at most ${decimal(p, n.perSecond)}/s)` : `at most ${decimal(p, n.perSecond)}/s`;
    return `  number ${n.channelId}: ${count(p, n.sent)} sent, ${count(p, n.failed)} failed, ${reached}${drained}`;
  });
}
