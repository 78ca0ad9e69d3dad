import { count, type ForPeople } from '../../locale/people.js';
import type { Summary } from '../../report/index.js';

/**
 * Which command takes up what is left, one line each: the contacts not reached (`run` or `resume`),
 * the failed ones (only `resume` retries them, those a retry can heal, on their conversations), and
 * those in doubt (`reconcile` reads the platform first, then `resume` sends the ones it did not find).
 */
export function nextSteps(byStatus: Summary['byStatus'], pending: number = byStatus.pending, p: Pick<ForPeople, 'locale'> = { locale: undefined }): string[] {
  const lines: string[] = [];
  const n = (x: number) => count(p, x);
  const { failed, in_doubt: inDoubt } = byStatus;
  if (pending > 0) lines.push(`pending (not reached): ${n(pending)}; run \`outreach run\` (or \`outreach resume\`) again to continue with them`);
  if (failed > 0) {
    lines.push(`failed ${failed}: \`outreach resume\` retries those a retry can heal (a 502, a timeout) on their own conversations; \`outreach run\` leaves them as they are (report.csv says why each failed)`);
  }
  if (inDoubt > 0) {
    lines.push(`in doubt ${n(inDoubt)}: may have reached the platform; \`outreach reconcile\` checks them there first, then \`outreach resume\` sends the ones it did not find`);
  }
  return lines;
}
