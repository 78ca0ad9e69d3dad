import { open } from 'node:fs/promises';
import type { Logger } from 'pino';
import { rowKey, type ContactListing, type ContactState, type ContactStates, type StateStore } from '../../checkpoint/index.js';
import { readAheadCsv, type Contact, type CsvReadAhead, type Reject } from '../../contacts/index.js';
import { readRejects } from '../../report/index.js';
import { decide, heldReject } from '../../plan/index.js';
import { emptyStats, followupsDue, type RetryMode, type RunStats } from '../../run/index.js';
import { holds, mayBeSent } from './may-be-sent.js';
import { listFiles, listSource, readsFor } from '../list/index.js';
import type { OtherJobsTally } from '../account/index.js';
import { planContextFor, type PlanLookups, saveRejects } from '../plan/index.js';
import type { Prepared } from '../prepare/index.js';
import { SendPass } from './send-pass.js';
import { owedStep, pickedList, type PickedList } from './resume-rows.js';

/** Bytes of the start of a file read to estimate its lines. */
const SAMPLE_BYTES = 64 * 1024;

/**
 * `run`'s read of the list, with the planner deciding each contact as it is read (at the clock's time
 * then). A contact this run will not send (sent, or failed or in doubt and not taken up again) is
 * not planned: whatever the planner would say of it now, it is not a reject of this run. A skipped
 * contact is decided again: the cause of its skip may be gone. The contacts it may send are counted
 * in `otherJobs` when other jobs of the folder messaged them lately.
 */
export async function openSendPass(
  prepared: Prepared,
  run: {
    lookups: PlanLookups;
    clock: () => number;
    states: ContactStates;
    mode: RetryMode;
    onSettled?: (alreadyDone: number) => void;
    otherJobs?: OtherJobsTally;
    /** A run going on reads only the rows left when the store keeps a listing of the list as it is (resume-rows.ts). */
    store?: StateStore;
  },
  rejectsFile: string,
): Promise<{ pass: SendPass; files: string; picked?: PickedList; whyWhole?: string }> {
  const files = await listFiles(prepared);
  const { lookups, clock, states, mode } = run;
  const { picked, why } = run.store ? await pickedList(prepared, run.store, { states, mode, files }) : { why: undefined };
  // A whole read: the list's CSV is read and parsed in a worker thread meanwhile (the pass stops it).
  const csvWorker = picked ? undefined : listReadAhead(prepared);
  // A job with no after-send step and no media: a contact this run will not send owes nothing, its status alone says so.
  const stepsFollow = owedStep(prepared.job, mode) !== undefined;
  // A row asks three times of its phone's state as it is taken (is its cell a known number, is it
  // planned, is it settled), one right after the other: one look-up answers the three. A phone's state
  // only changes once it is sent, and a row whose phone is in flight is a duplicate, asked no more; the
  // executor reads the state again before any request all the same (run/send-contact.ts).
  let asked: string | undefined;
  let may = false;
  const maySend = (phone: string): boolean => {
    if (phone !== asked) {
      may = mayBeSent(states, phone, mode);
      asked = phone;
    }
    return may;
  };
  const pass = new SendPass(prepared, {
    ...(picked && { picked }),
    planner: (contact) => {
      if (!maySend(contact.phone)) return undefined;
      const now = clock();
      const action = decide(contact, prepared.channel, prepared.job, planContextFor(lookups, contact, now));
      run.otherJobs?.note(contact.phone, now, action);
      return action.kind === 'reject' ? heldReject(action, holds(states, contact.phone)) : action;
    },
    // What the executor would only count as untouched is counted here, without a trip through it.
    settled: stepsFollow
      ? (contact) => !maySend(contact.phone) && nothingOwed(prepared, states.get(contact.phone), contact, mode)
      : (contact) => !maySend(contact.phone),
    // A contact this run will not send again had its number normalised when it was sent (or tried):
    // a row that writes that very number is read without the phone library (contacts/known-phone.ts).
    known: (phone) => !maySend(phone),
    ...(run.onSettled && { onSettled: run.onSettled }),
    maxRejectRatio: prepared.job.limits.max_reject_ratio,
    rejectsFile,
    ...(csvWorker && { csvWorker }),
  });
  if (picked) run.onSettled?.(picked.settled);
  return { pass, files, ...(picked && { picked }), ...(why !== undefined && { whyWhole: why }) };
}

/**
 * The list's CSV and TSV files read and parsed ahead in a worker thread, for a run that reads its list
 * whole: the run's thread only reads each row (a million before the first send, for a run going on
 * with no listing). Undefined for a list of JSON files only (or with no worker to start).
 */
function listReadAhead(prepared: Prepared): CsvReadAhead | undefined {
  const { format, delimiter } = prepared.job.input;
  const json = (file: string) => ['json', 'ndjson', 'jsonl'].includes(format ?? file.split('.').pop()?.toLowerCase() ?? '');
  if (prepared.files.every(json)) return undefined;
  return readAheadCsv(prepared.files, { format, delimiter });
}

/** A state with nothing left for this run: not sent again, and (when sent) no after-send step owed. */
function nothingOwed(prepared: Prepared, prior: ContactState | undefined, contact: Contact, mode: RetryMode): boolean {
  if (prior === undefined) return false;
  return prior.status !== 'sent' || !followupsDue(prepared.job, prior, contact, mode.retryInDoubt);
}

/**
 * About how many contacts the list holds, for the progress bar, without reading the list: the size
 * of the listing a former read left (a run that goes on), else each file's size times the lines per
 * byte of its first 64 KiB.
 */
export async function listSize(prepared: Prepared, store: StateStore, files: string): Promise<number> {
  const kept = await store.listing(prepared.job.name, listSource(prepared, files, await store.planRejects(prepared.job.name))).catch(() => undefined);
  if (kept) return kept.size;
  let rows = 0;
  for (const file of prepared.files) {
    const format = prepared.job.input.format ?? file.split('.').pop()?.toLowerCase();
    rows += Math.max(0, (await estimateLines(file)) - (format === 'json' || format === 'ndjson' || format === 'jsonl' ? 0 : 1));
  }
  return rows;
}

/** Lines of a file, estimated from its first SAMPLE_BYTES (exact when the file is no longer). */
async function estimateLines(file: string): Promise<number> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const sample = Buffer.alloc(Math.min(size, SAMPLE_BYTES));
    const { bytesRead } = await handle.read(sample, 0, sample.length, 0);
    let lines = 0;
    for (let i = sample.indexOf(0x0a); i !== -1 && i < bytesRead; i = sample.indexOf(0x0a, i + 1)) lines += 1;
    if (bytesRead >= size) return sample[bytesRead - 1] === 0x0a || bytesRead === 0 ? lines : lines + 1;
    return Math.round((lines * size) / bytesRead);
  } finally {
    await handle.close();
  }
}

/** The list's usable contacts as the end of a run knows them, and whether the list was read to its end. */
export interface SettledList {
  listing: ContactListing;
  /** Set when neither this read nor a kept one covers the whole list: the report and the pending count lack the rows not read. */
  incomplete?: { lastRow: { file: string; line: number } | undefined };
  /** Rows now in rejects.csv. */
  rejected: number;
}

/**
 * After the send: reads the rest of the list when the send stopped before its end (unless the run is
 * being cut), saves rejects.csv with the contacts rejected at send time, and keeps the listing for
 * status and report when the whole list was read and did not change meanwhile, with what it was read
 * from (each file's size, time, SHA-256). A read that did not
 * reach the end (cut, or a row the loader could not read) keeps the rejects of the rows it did not
 * reach and counts from the listing an earlier whole read kept, when there is one.
 */
export async function settlePass(
  store: StateStore,
  prepared: Prepared,
  read: { pass: SendPass; files: string; picked?: PickedList },
  late: { rejects: Reject[]; phones: ReadonlySet<string> },
  options: { cut?: AbortSignal; logger: Logger },
): Promise<SettledList> {
  const { pass } = read;
  const job = prepared.job.name;
  if (!pass.complete && pass.listError === undefined && !options.cut?.aborted) {
    options.logger.info({ rows: pass.rows }, 'reading the rest of the list (nothing more is sent) to count what is pending');
  }
  await pass.finish(options.cut);
  const whole = pass.complete;
  await pass.close();
  const rejects = [...pass.rejects, ...late.rejects];
  const drop = (listing: ContactListing) => (late.phones.size > 0 ? listing.filter((phone) => !late.phones.has(phone)) : listing);
  if (whole) {
    await saveRejects(store, job, { rejects });
    const listing = drop(pass.listing);
    const rejected = rejects.length;
    if ((await listFiles(prepared).catch(() => '')) === read.files) {
      const source = listSource(prepared, read.files, new Set(rejects.map(rowKey)));
      // What it was read from, so that a next run of a list that only grew reads only what is new (list/reads.ts).
      listing.reads = await readsFor(prepared.files, read.files, read.picked?.kept.reads);
      await store.saveListing(job, source, listing).catch((err: unknown) => options.logger.warn({ err }, 'could not keep the list for status and report'));
    }
    return { listing, rejected };
  }
  const kept = await store.listing(job, listSource(prepared, read.files, await store.planRejects(job))).catch(() => undefined);
  const earlier = await readRejects(store.jobFiles(job).rejects).catch(() => []);
  const notReached = rowsAfter(prepared.files, pass.lastRow);
  const all = [...rejects, ...earlier.filter(notReached)];
  await saveRejects(store, job, { rejects: all });
  if (kept) return { listing: drop(kept), rejected: all.length };
  return { listing: drop(pass.listing), incomplete: { lastRow: pass.lastRow }, rejected: all.length };
}

/** Whether a row comes after `last` in the list's reading order (every row when nothing was read). */
function rowsAfter(files: readonly string[], last: { file: string; line: number } | undefined): (row: { file: string; line: number }) => boolean {
  if (!last) return () => true;
  const at = files.indexOf(last.file);
  return (row) => {
    const i = files.indexOf(row.file);
    return i > at || (i === at && row.line > last.line);
  };
}

/**
 * The progress a run reports: the executor's counts plus the contacts the pass counted as already
 * done without handing them to it (a long settled stretch reports every 1,024 of them).
 */
export function settledProgress(onProgress: ((stats: RunStats, live: { concurrencyBound?: string }) => void) | undefined) {
  let alreadyDone = 0;
  let last: RunStats = emptyStats();
  let live: { concurrencyBound?: string } = {};
  const emit = () => onProgress?.({ ...last, seen: last.seen + alreadyDone, untouched: last.untouched + alreadyDone }, live);
  return {
    settled(done: number) {
      alreadyDone = done;
      emit();
    },
    result(stats: RunStats, now: { concurrencyBound?: string }) {
      last = stats;
      live = now;
      emit();
    },
  };
}
