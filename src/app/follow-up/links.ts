import path from 'node:path';
import type { StateStore } from '../../checkpoint/index.js';
import type { HtmlReportData } from '../../report/index.js';
import { funnelOf, repliesOf } from '../delivery/index.js';

interface FollowUpLink {
  job: string;
  who: string;
}

function linksOf(note: unknown): FollowUpLink[] {
  if (!Array.isArray(note)) return [];
  return note.filter((l): l is FollowUpLink => l !== null && typeof l === 'object' && typeof (l as FollowUpLink).job === 'string' && typeof (l as FollowUpLink).who === 'string');
}

/** A follow-up's run notes itself on its earlier job (once), so the earlier job's page links its numbers. */
export async function noteFollowUp(store: StateStore, earlier: string, followUp: FollowUpLink): Promise<void> {
  const links = linksOf(await store.jobNote(earlier, 'follow_ups'));
  if (links.some((l) => l.job === followUp.job)) return;
  await store.saveJobNote(earlier, 'follow_ups', [...links, followUp]);
}

/** The numbers of the jobs following `job` up, each with the path of its page relative to this job's page. */
export async function followUpNumbers(store: StateStore, job: string): Promise<NonNullable<HtmlReportData['followUps']>> {
  const here = path.dirname(store.jobFiles(job).report);
  const out: NonNullable<HtmlReportData['followUps']> = [];
  for (const link of linksOf(await store.jobNote(job, 'follow_ups'))) {
    const view = await store.readJob(link.job);
    if (view === undefined) continue;
    const f = funnelOf(view.states.values(), await repliesOf(store, view.states));
    const page = path.relative(here, store.jobFiles(link.job).report.replace(/\.csv$/, '.html')).split(path.sep).join('/');
    out.push({ job: link.job, who: link.who, sent: f.sent, delivered: f.delivered, read: f.read, replied: f.replied, page });
  }
  return out;
}
