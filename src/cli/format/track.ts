import type { PassStart, ReconcileOutcome, TrackOutcome, TrackPass } from '../../app/index.js';
import { formatDuration } from '../../report/index.js';
import { count, type ForPeople } from '../../locale/people.js';
import { formatFunnel } from './funnel.js';

type Locale = Pick<ForPeople, 'locale'>;

/** What reconcile did, in a few lines (nothing when no contact was in doubt). */
export function formatReconcile(r: ReconcileOutcome, p: Locale = { locale: undefined }): string {
  if (r.inDoubt === 0) return 'reconcile: no contact in doubt\n';
  const n = (x: number) => count(p, x);
  const lines = [`reconcile: ${n(r.inDoubt)} in doubt → ${n(r.sent)} found sent, ${n(r.pending)} pending (resume sends them), ${n(r.unresolved.length)} still in doubt (${n(r.requests)} requests)`];
  for (const u of r.unresolved.slice(0, 5)) lines.push(`  ${u.phone}: ${u.reason}`);
  if (r.unresolved.length > 5) lines.push(`  … and ${r.unresolved.length - 5} more (report.csv has each reason)`);
  return `${lines.join('\n')}\n`;
}

/** Before a pass: "track of promo: reading 4132 messages that can still change at up to 100/s: about 41.3s a pass". */
export function formatPassStart(p: PassStart): string {
  if (p.due === 0) return `track of ${p.job}: no message can still change${p.pass > 1 ? ' (this pass)' : ''}\n`;
  return `track of ${p.job}: reading ${p.due} message${p.due === 1 ? '' : 's'} that can still change at up to ${p.perSecond}/s: ${p.estimatedMs < 1000 ? 'under a second' : `about ${formatDuration(p.estimatedMs)}`} a pass\n`;
}

/** One pass, for the log lines of --until-settled. */
export function formatPass(pass: TrackPass, n: number): string {
  return `track pass ${n}: ${pass.checked} messages read, ${pass.changed} changed, ${pass.unsettled} still to watch${pass.errors > 0 ? `, ${pass.errors} reads failed` : ''}\n`;
}

/** The end of a track for people. */
export function formatTrack(t: TrackOutcome, p: Locale = { locale: undefined }): string {
  const n = (x: number) => count(p, x);
  const lines = [
    formatReconcile(t.reconcile, p).trimEnd(),
    `track of ${t.job}: ${n(t.checked)} messages read in ${n(t.passes)} pass(es), ${n(t.changed)} changed; ${n(t.unsettled)} still to watch${t.unsettled > 0 ? ' (run track again later)' : ''}`,
  ];
  if (t.notFound > 0) lines.push(`  ${t.notFound} messages not found in their conversation`);
  if (t.errors > 0) lines.push(`  ${t.errors} reads failed, e.g. ${t.firstError ?? ''}; they are read again next time`);
  if (t.optedOut.length > 0) lines.push(`  ${t.optedOut.length} stopped marketing messages from this business (131050): never message them again`);
  lines.push(formatFunnel(t.funnel, p).trimEnd());
  return `${lines.join('\n')}\n`;
}
