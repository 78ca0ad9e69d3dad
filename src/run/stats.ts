import type { ContactResult } from './send-contact.js';

/** Running counts of one run, for the progress bar, the failure-ratio guard and the summary. */
export interface RunStats {
  /** Contacts taken from the list so far (all kinds). */
  seen: number;
  sent: number;
  failed: number;
  inDoubt: number;
  skipped: number;
  deferred: number;
  rejected: number;
  /** Settled by an earlier run, or left for resume. */
  untouched: number;
  interrupted: number;
  warnings: number;
}

export function emptyStats(): RunStats {
  return { seen: 0, sent: 0, failed: 0, inDoubt: 0, skipped: 0, deferred: 0, rejected: 0, untouched: 0, interrupted: 0, warnings: 0 };
}

export function tally(stats: RunStats, result: ContactResult): void {
  stats.seen += 1;
  switch (result.kind) {
    case 'sent':
      stats.sent += 1;
      stats.warnings += result.warnings.length;
      return;
    case 'failed':
      stats.failed += 1;
      return;
    case 'in_doubt':
      stats.inDoubt += 1;
      return;
    case 'skipped':
      stats.skipped += 1;
      return;
    case 'deferred':
      stats.deferred += 1;
      return;
    case 'rejected':
      stats.rejected += 1;
      return;
    case 'untouched':
      stats.untouched += 1;
      stats.warnings += result.warnings.length;
      return;
    case 'interrupted':
      stats.interrupted += 1;
      return;
    default: {
      const never: never = result;
      return never;
    }
  }
}

/** Contacts this run settled by sending (or trying to). */
export function attempted(stats: RunStats): number {
  return stats.sent + stats.failed + stats.inDoubt;
}

/** The guard against burning a whole list on a wrong template or a dead channel: pure. */
export function failureRatioExceeded(stats: RunStats, maxRatio: number, minDone = 50): boolean {
  const done = attempted(stats) + stats.skipped;
  if (done < minDone) return false;
  return (stats.failed + stats.inDoubt) / done > maxRatio;
}
