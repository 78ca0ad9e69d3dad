/**
 * The console's GET /metrics: every job of the store as `status` reads it (contacts by status, whether a
 * run holds it), each company's messaging limit, and whether the store answers; the names are the ones
 * the runs publish (src/metrics/names.ts). The job's key is the label `campaign` (its name, or
 * `name@company` when two companies' jobs share a name).
 */
import { companyRooms, type JobFigures } from '../app/index.js';
import { CONTACT_STATUSES, consoleMetrics } from '../metrics/index.js';

export interface ConsoleScrape {
  contentType: string;
  text: string;
}

/** The metrics text of `jobs` now (none when the store could not be read), with `storeUp`. */
export async function scrape(jobs: readonly JobFigures[] | undefined, storeUp: boolean): Promise<ConsoleScrape> {
  // A registry per scrape: a job gone from the store leaves no stale series behind.
  const m = consoleMetrics();
  m.storeUp.set(storeUp ? 1 : 0);
  for (const f of jobs ?? []) {
    for (const status of CONTACT_STATUSES) m.contacts.set({ campaign: f.key, status }, f.status.summary.byStatus[status]);
    m.running.set({ campaign: f.key }, f.phase.kind === 'running' ? 1 : 0);
  }
  for (const c of companyRooms(jobs ?? [])) {
    if (c.company === undefined || c.room.limit === undefined || c.room.room === undefined) continue;
    m.messagingLimitRemaining.set({ company: String(c.company) }, c.room.room);
    m.messagingLimit.set({ company: String(c.company) }, c.room.limit);
  }
  return { contentType: m.registry.contentType, text: await m.registry.metrics() };
}
