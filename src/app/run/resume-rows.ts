import { rowKey, type ContactListing, type ContactStates, type StateStore } from '../../checkpoint/index.js';
import { pickRows, type LoadItem, type Reject, type RowAt, type TailAt } from '../../contacts/index.js';
import type { Job } from '../../job/index.js';
import { readRejects } from '../../report/index.js';
import { followupSteps, type RetryMode } from '../../run/index.js';
import { placeholderColumns } from '../audience/index.js';
import { listSource, bytesPerLine, filesOfReads, growthOf } from '../list/index.js';
import { mayBeSent } from './may-be-sent.js';
import { loaderOptions } from '../load/index.js';
import type { Prepared } from '../prepare/index.js';

/** More rows left than this, or than half the list, and the run reads the whole list (picked rows are held in memory; a streamed read costs as much then). */
export const MAX_PICKED_ROWS = 50_000;

/**
 * A run that goes on, read from the listing of the list as it is (the same files, settings and
 * rejects): only the rows it may still act on, not the whole list. With the listing and rejects.csv
 * (which the listing's source names row by row) every row of the list is accounted for.
 */
export interface PickedList {
  /** The rows read again, in list order: the listed contacts this run may send or owes a step, and the rows the planner rejected before (it decides them again). */
  items: LoadItem[];
  /** The listing the last whole read kept. */
  kept: ContactListing;
  /** The listed rows read again (`file:line`). */
  listedRows: ReadonlySet<string>;
  /** Earlier rejects kept as they are (the loader's: the list is the same). */
  rejects: Reject[];
  /** Listed contacts not read again: nothing left for this run. */
  settled: number;
  /** Data rows of the whole list (its usable contacts and its rejects). */
  rows: number;
  /** Rows read that the listing's read never saw: appended to its last file, or in files new to the list. */
  newRows: number;
}

/** The listing of the list as it is; else the last one kept, when the list only grew since, with the rows to read from where it grew. */
async function keptOrGrown(prepared: Prepared, store: StateStore, files: string, planRejects: ReadonlySet<string>): Promise<{ kept: ContactListing; tails: TailAt[]; newBytes: number } | { why: string }> {
  const { job } = prepared;
  const kept = await store.listing(job.name, listSource(prepared, files, planRejects)).catch(() => undefined);
  if (kept) return { kept, tails: [], newBytes: 0 };
  const last = await store.lastListing(job.name).catch(() => undefined);
  // The same settings and rejects read it, from the files as its reads say they were.
  if (!last?.reads || last.source !== listSource(prepared, filesOfReads(last.reads), planRejects)) return { why: 'no listing of the list as it is' };
  const growth = await growthOf(prepared.files, last.reads);
  if (!growth.grown) return { why: growth.why };
  return { kept: last, tails: growth.tails, newBytes: growth.newBytes };
}

/** The rows a run going on must read, when a listing of the list as it is lets it skip the others; undefined: read the whole list. */
export async function pickedList(prepared: Prepared, store: StateStore, run: { states: ContactStates; mode: RetryMode; files: string }): Promise<{ picked?: PickedList; why?: string }> {
  const { job } = prepared;
  if (prepared.only !== undefined) return { why: 'a follow-up reads its list whole' };
  if (prepared.files.some((file) => !['csv', 'tsv'].includes(job.input.format ?? file.split('.').pop()?.toLowerCase() ?? ''))) return { why: 'not a CSV or TSV list' };
  const planRejects = await store.planRejects(job.name);
  const base = await keptOrGrown(prepared, store, run.files, planRejects);
  if ('why' in base) return { why: base.why };
  const { kept, tails } = base;
  // About the rows the tails hold, from the bytes per line of what the listing read.
  const tailRows = kept.reads && base.newBytes > 0 ? Math.ceil(base.newBytes / bytesPerLine(kept.reads)) : 0;
  const earlier = await readRejects(store.jobFiles(job.name).rejects).catch(() => undefined);
  if (earlier === undefined || earlier.length !== planRejects.size || earlier.some((r) => !planRejects.has(rowKey(r)))) return { why: 'rejects.csv is not the one the listing was read with' };
  const rows: RowAt[] = [];
  const listed = new Map<string, string>();
  const owes = owedStep(job, run.mode);
  const { states, mode } = run;
  // Most contacts are decided by their status, found by their place in the listing (no phone string made).
  const statusAt = states.listedStatus(kept);
  for (let i = 0; i < kept.size; i++) {
    const status = statusAt(i);
    if (status === 'sent' && !owes) continue;
    if (status !== undefined && status !== 'pending' && status !== 'deferred' && status !== 'skipped') {
      const phone = kept.phoneAt(i);
      if (!mayBeSent(states, phone, mode) && !owes?.(states, phone)) continue;
    }
    const contact = kept.at(i);
    if (contact.file === undefined) return { why: 'the listing does not name the files' };
    rows.push({ file: contact.file, line: contact.line });
    listed.set(rowKey({ file: contact.file, line: contact.line }), contact.phone);
    if (rows.length + tailRows > MAX_PICKED_ROWS) return { why: `more than ${MAX_PICKED_ROWS} rows left` };
  }
  if (rows.length + tailRows > MAX_PICKED_ROWS) return { why: `more than ${MAX_PICKED_ROWS} rows left` };
  if ((rows.length + tailRows) * 2 > kept.size + tailRows) return { why: 'more than half of the list is left' };
  const again = earlier.filter((r) => byPlanner(r.reason));
  // New rows are deduped against every listed phone, as a whole read would (the settled rows are not read again).
  const picked = await pickRows(prepared.files, { ...loaderOptions(job, prepared.namedColumns), placeholders: placeholderColumns(prepared) }, [...rows, ...again], {
    tails,
    ...(tails.length > 0 && { known: kept.columns() }),
  });
  if (!picked.ok) return { why: picked.why };
  // Each listed row must read as the contact the listing names; else the list is read whole.
  let found = 0;
  for (const item of picked.items) {
    if (item.kind === 'warning') continue;
    const row = item.kind === 'contact' ? item.contact : item.reject;
    const phone = listed.get(rowKey(row));
    if (phone === undefined) continue;
    if (item.kind !== 'contact' || item.contact.phone !== phone) return { why: `${row.file} line ${row.line} is not the contact the listing names` };
    found += 1;
  }
  if (found !== listed.size) return { why: 'some listed rows were not read' };
  const newRows = picked.items.filter((item) => item.kind !== 'warning').length - listed.size - again.length;
  return {
    picked: { items: picked.items, kept, listedRows: new Set(listed.keys()), rejects: earlier.filter((r) => !byPlanner(r.reason)), settled: kept.size - listed.size, rows: kept.size + earlier.length + newRows, newRows },
  };
}

/** A planner's reject (decided again: the job may have changed), not the loader's. */
function byPlanner(reason: string): boolean {
  return reason === 'text_too_long' || reason.startsWith('missing_variable:');
}

/**
 * For a job with after-send steps or media: whether a sent contact may still owe one (the send pass
 * decides it on the row itself). Undefined when the job has none: a sent contact owes nothing.
 */
export function owedStep(job: Job, mode: RetryMode): ((states: ContactStates, phone: string) => boolean) | undefined {
  const steps = followupSteps(job, undefined);
  const media = job.message.media !== undefined || job.message.variants.some((v) => v.message.media !== undefined);
  if (steps.length === 0 && !media) return undefined;
  return (states, phone) => {
    const prior = states.get(phone);
    if (prior?.status !== 'sent') return false;
    return prior.mediaOwed === true || steps.some((step) => !prior.followups[step] && !(prior.followupsInDoubt?.[step] && !mode.retryInDoubt));
  };
}
