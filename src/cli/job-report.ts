import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import type { ContactState } from '../checkpoint/index.js';
import { globalStatePaths, jobStatePaths, readJournal, repliesFor, replay } from '../checkpoint/index.js';
import { loadContacts } from '../contacts/index.js';
import { loadJob, resolveContactFiles, type LoadedJob } from '../job/index.js';
import { reportRows, type ReportRow } from '../report/index.js';
import { resolveStateDir } from './context.js';
import { CliError } from './exit.js';
import { loaderOptions } from './prepare.js';

/**
 * The usable contacts of the job's list, read locally (no platform): the ones not in the checkpoint
 * are reported as pending. A list that is gone or unreadable gives none, with the reason.
 */
export async function listedContacts(
  loaded: LoadedJob,
  rejectsFile: string,
): Promise<{ listed: Array<{ phone: string; line: number }>; problem?: string }> {
  const listed: Array<{ phone: string; line: number }> = [];
  try {
    const rejected = await rejectedRows(rejectsFile);
    const files = await resolveContactFiles(loaded);
    const { items } = loadContacts(files, loaderOptions(loaded.job));
    for await (const item of items) {
      if (item.kind !== 'contact' || rejected.has(`${item.contact.file}:${item.contact.line}`)) continue;
      listed.push({ phone: item.contact.phone, line: item.contact.line });
    }
  } catch (err) {
    return { listed: [], problem: err instanceof Error ? err.message : String(err) };
  }
  return { listed };
}

/** file:line of every row the last plan or run rejected (the planner's rejects are contacts to the loader). */
async function rejectedRows(rejectsFile: string): Promise<Set<string>> {
  let text: string;
  try {
    text = await readFile(rejectsFile, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new Set();
    throw err;
  }
  const rows = parse(text, { columns: true, bom: true }) as Array<Record<string, string>>;
  return new Set(rows.map((r) => `${r.file}:${r.line}`));
}

/**
 * The job's report rows: every contact of the checkpoint, plus the list's contacts never reached
 * (pending), with `replied_at` from the webhook's events log.
 */
export async function jobReportRows(
  stateDir: string,
  states: Map<string, ContactState>,
  listed: Array<{ phone: string; line: number }> = [],
): Promise<ReportRow[]> {
  const sent = new Map<string, { sentAt: string; clientId?: string; conversationId?: string }>();
  for (const s of states.values()) {
    if (s.status !== 'sent' || !s.sentAt) continue;
    sent.set(s.phone, {
      sentAt: s.sentAt,
      ...(s.clientId ? { clientId: s.clientId } : {}),
      ...(s.conversationId ? { conversationId: s.conversationId } : {}),
    });
  }
  const replies = await repliesFor(globalStatePaths(stateDir).events, sent);
  const pendingPhones = listed.filter((c) => !states.has(c.phone));
  return reportRows(states, { replies, pendingPhones });
}

/**
 * What `status` and `report` read, locally and without the platform: the job, its replayed
 * checkpoint, and one report row per contact (pending ones included).
 */
export async function loadJobReport(jobPath: string, stateDirFlag: string | undefined) {
  const loaded = await loadJob(jobPath);
  const { job } = loaded;
  const stateDir = resolveStateDir(stateDirFlag);
  const paths = jobStatePaths(stateDir, job.name);
  const states = await jobStates(paths.checkpoint, job.name);
  const { listed, problem } = await listedContacts(loaded, paths.rejects);
  if (problem) process.stderr.write(`outreach: contacts not counted as pending: ${problem}\n`);
  const rows = await jobReportRows(stateDir, states, listed);
  return { job, paths, states, rows };
}

/** Replays the job's checkpoint; a job never run is an error that says to run it. */
async function jobStates(checkpointFile: string, jobName: string): Promise<Map<string, ContactState>> {
  if (!existsSync(checkpointFile)) {
    throw new CliError(
      `job "${jobName}" has no checkpoint at ${checkpointFile}: run \`outreach run\` first (or pass the --state-dir it ran with)`,
    );
  }
  return replay((await readJournal(checkpointFile)).events);
}
