import type { ContactState } from '../../checkpoint/index.js';
import type { ContactResult } from '../../run/index.js';

/** The reason whose time comes back every day: a run made outside the send window never reaches it. */
const WINDOW_REASON = 'quiet_hours';

/**
 * Contacts a run deferred for quiet hours again although an earlier run had deferred them to a time
 * before this run started: their window opened and closed between the runs, and a schedule that
 * always fires outside it defers them for ever. `openedAt` is the earliest such opening (in `zone`,
 * the contact's, when known).
 */
export interface MissedWindows {
  count: number;
  reason: typeof WINDOW_REASON;
  openedAt: string;
  zone?: string;
}

/**
 * Watches one run's decisions: `prior` sees each contact's state as earlier runs left it (before the
 * decision), `result` what this run made of it. Keeps only the contacts whose earlier deferral had
 * come due before the run started.
 */
export function missedWindowsWatch(runStartedAt: number) {
  const due = new Map<string, { notBefore: string; zone?: string }>();
  let count = 0;
  let first: { at: number; notBefore: string; zone?: string } | undefined;
  return {
    prior(phone: string, state: ContactState | undefined): ContactState | undefined {
      if (state?.status === 'deferred' && state.reason === WINDOW_REASON && Date.parse(state.notBefore) <= runStartedAt) {
        due.set(phone, { notBefore: state.notBefore, ...(state.zone !== undefined && { zone: state.zone }) });
      }
      return state;
    },
    result(phone: string, result: ContactResult): void {
      const earlier = due.get(phone);
      if (earlier === undefined) return;
      due.delete(phone);
      if (result.kind !== 'deferred' || result.reason !== WINDOW_REASON) return;
      count += 1;
      const at = Date.parse(earlier.notBefore);
      if (first === undefined || at < first.at) first = { at, ...earlier };
    },
    outcome(): { missedWindows?: MissedWindows } {
      if (first === undefined) return {};
      return { missedWindows: { count, reason: WINDOW_REASON, openedAt: first.notBefore, ...(first.zone !== undefined && { zone: first.zone }) } };
    },
  };
}
