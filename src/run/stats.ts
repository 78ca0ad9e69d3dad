import { providerClassInfo } from './provider-classes.js';
import type { ContactResult } from './contact-result.js';

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
  /** Failed for a fact about the contact, not the campaign (undeliverable, opted out): left out of the failure ratio. */
  contactFacts: number;
  /** Deferred by a provider refusal that says something about the campaign (131049): counted by the failure ratio. */
  providerDeferred: number;
}

export function emptyStats(): RunStats {
  return { seen: 0, sent: 0, failed: 0, inDoubt: 0, skipped: 0, deferred: 0, rejected: 0, untouched: 0, interrupted: 0, warnings: 0, contactFacts: 0, providerDeferred: 0 };
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
      if (result.providerClass && !providerClassInfo(result.providerClass).countsTowardFailureRatio) stats.contactFacts += 1;
      return;
    case 'in_doubt':
      stats.inDoubt += 1;
      return;
    case 'skipped':
      stats.skipped += 1;
      return;
    case 'deferred':
      stats.deferred += 1;
      if (result.providerClass && providerClassInfo(result.providerClass).countsTowardFailureRatio) stats.providerDeferred += 1;
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

/**
 * What the failure-ratio guard weighs: contacts that failed (or are in doubt, or were deferred by the
 * provider) for a reason that says something about the campaign, out of the contacts settled. A
 * failure that is a fact about the contact (a number not on WhatsApp, a person who opted out) is in
 * neither count. Pure.
 */
export function failureRatio(stats: RunStats): { bad: number; done: number } {
  const { contactFacts, providerDeferred } = stats;
  return {
    bad: stats.failed + stats.inDoubt - contactFacts + providerDeferred,
    done: attempted(stats) + stats.skipped - contactFacts + providerDeferred,
  };
}

/** The guard against burning a whole list on a wrong template or a dead channel: pure. */
export function failureRatioExceeded(stats: RunStats, maxRatio: number, minDone = 50): boolean {
  const { bad, done } = failureRatio(stats);
  if (done < minDone) return false;
  return bad / done > maxRatio;
}
