/**
 * What a state folder of an earlier version tells of whom its records belong to, for an import: the
 * company of each job (its header's pinned `company_id`), the folder's only company when its jobs are
 * all of one, and the message each job's first message to a phone carried (its journal's attempts), so
 * that the ledger lines written before the message was kept carry it once imported.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { headerCompany } from '../job-key.js';
import type { MessageKeyOf } from '../store-import.js';
import { jobStatePaths } from './paths.js';
import { readJournal } from './read-journal.js';
import { readHeader } from './read-header.js';

export type { MessageKeyOf } from '../store-import.js';

export interface FolderFacts {
  /** The folder's jobs (its sub-folders that hold a journal), by name. */
  readonly jobs: readonly string[];
  /** The company of a job of the folder, as its header names it. */
  companyOf(job: string): number | undefined;
  /** The one company every job of the folder names, when there is exactly one. */
  readonly onlyCompany: number | undefined;
  /** The key of the message the job's journal shows it sent the phone (its latest attempt with content), when known. */
  messageOf(job: string, phone: string): Promise<string | undefined>;
}

export async function folderFacts(folder: string, messageKey?: MessageKeyOf): Promise<FolderFacts> {
  const jobs = await journalFolders(folder);
  const companies = new Map<string, number>();
  for (const job of jobs) {
    const company = headerCompany(await readHeader(jobStatePaths(folder, job).checkpoint).catch(() => undefined));
    if (company !== undefined) companies.set(job, company);
  }
  const distinct = new Set(companies.values());
  const messages = new Map<string, Promise<Map<string, string>>>();
  const messagesOf = (job: string): Promise<Map<string, string>> => {
    let read = messages.get(job);
    if (read === undefined) {
      read = attemptsOf(jobStatePaths(folder, job).checkpoint, messageKey);
      messages.set(job, read);
    }
    return read;
  };
  return {
    jobs,
    companyOf: (job) => companies.get(job),
    onlyCompany: distinct.size === 1 ? [...distinct][0] : undefined,
    messageOf: async (job, phone) => (messageKey === undefined || !jobs.includes(job) ? undefined : (await messagesOf(job)).get(phone)),
  };
}

/** The folder's sub-folders that hold a journal, sorted. */
export async function journalFolders(folder: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  const jobs: string[] = [];
  for (const e of entries) {
    if (!e.isDirectory()) continue;
    const journal = await stat(path.join(folder, e.name, 'checkpoint.jsonl')).catch(() => undefined);
    if (journal?.isFile()) jobs.push(e.name);
  }
  return jobs.sort();
}

/** Phone → the key of the content of its latest attempt with one. */
async function attemptsOf(file: string, messageKey: MessageKeyOf | undefined): Promise<Map<string, string>> {
  const keys = new Map<string, string>();
  if (messageKey === undefined) return keys;
  const { events } = await readJournal(file, { lines: (line) => line.includes('"attempt"') && line.includes('"content"') });
  for (const e of events) if (e.t === 'attempt' && e.content !== undefined) keys.set(e.phone, messageKey(e.content));
  return keys;
}
