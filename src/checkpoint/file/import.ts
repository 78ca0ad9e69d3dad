/**
 * A state folder (of this version or an earlier one) taken into a file store: what the account's store
 * does with a `.outreach/` folder an earlier version left beside a job file, and `outreach store import`
 * into a folder. Each job's files are copied whole into the store's folder of its company's job of that
 * name (its journal and the snapshot tied to it, its listing, its plan's rejected rows, its notes); a job
 * the store already holds with the same journal is "already there", with another one it is refused and
 * the rest goes on. The shared lists are appended, each record once, with the company each belongs to
 * (its job's, else the folder's only company) and, for a first message written before the message was
 * kept, the message its job's journal shows it carried. Importing again changes nothing.
 */
import { createHash } from 'node:crypto';
import { open, readFile, stat, type FileHandle } from 'node:fs/promises';
import { writeFileAtomic } from '../../files/atomic.js';
import { makePrivateDir } from '../../files/private.js';
import path from 'node:path';
import { readLedgerLine, ledgerRecord, takeBackRecord } from '../ledger.js';
import { readSuppressionChange, type SuppressionChange } from '../suppression.js';
import type { JobImport, PartImport, StoreImporter, StorePart } from '../store-import.js';
import type { RecordedEvent } from '../inbound.js';
import { headerCompany, jobKeys } from '../job-key.js';
import { readEvents, openEventsLog } from './events-log.js';
import { folderFacts, type FolderFacts, type MessageKeyOf } from './folder-facts.js';
import { jsonlFile, parseLine } from './jsonl-file.js';
import { lockHolder } from './lock.js';
import { globalStatePaths, jobStatePaths } from './paths.js';
import { readHeader } from './read-header.js';
import { snapshotFileOf } from './snapshot.js';
import { loadSyncBook, saveSyncBook } from './sync-book.js';
import { importWindowFile } from './window-store.js';
import { storeWriteError } from './state-file-error.js';

export interface FileImportOptions {
  /** How a first message's content is named (`messageKey`): without it, ledger lines of earlier versions go in without their message. */
  messageKey?: MessageKeyOf;
}

/** `folder` on its way into the file store kept in `into`. */
export function fileStoreImporter(into: string, folder: string, options: FileImportOptions = {}): StoreImporter {
  const from = path.resolve(folder);
  const dest = path.resolve(into);
  let facts: Promise<FolderFacts> | undefined;
  const known = () => (facts ??= folderFacts(from, options.messageKey));
  /** Jobs the store holds another journal of: their first messages are another state's (never sent again as the store's job's own). */
  const refused = new Set<string>();
  const stored = {
    companyOf: async (key: string) => headerCompany(await readHeader(jobStatePaths(dest, key).checkpoint)),
    exists: async (key: string) => (await stat(jobStatePaths(dest, key).checkpoint).catch(() => undefined)) !== undefined,
  };
  const parts: Record<StorePart, () => Promise<PartImport>> = {
    suppressions: async () => importSuppressions(await known(), from, dest),
    ledger: async () => importLedger(await known(), from, dest, refused),
    windows: async () => importWindows(await known(), from, dest),
    events: async () => importEvents(await known(), from, dest),
    syncBook: () => importSyncBook(from, dest),
  };
  return {
    from,
    into: dest,
    jobs: async () => (await known()).jobs.slice(),
    async job(name) {
      const f = await known();
      const company = f.companyOf(name);
      const key = company === undefined ? name : await jobKeys(company, stored).key(name);
      const outcome = await importJob(from, dest, name, key);
      if (outcome.kind === 'refused') refused.add(name);
      return outcome;
    },
    part: (part) => parts[part](),
    close: () => Promise.resolve(),
  };
}

async function importJob(from: string, dest: string, name: string, key: string): Promise<JobImport> {
  const source = jobStatePaths(from, name);
  const target = jobStatePaths(dest, key);
  const holder = await lockHolder(source.lock);
  if (holder) return { kind: 'refused', job: name, reason: `a run holds it in the folder now (pid ${holder.pid} on ${holder.host}); import it once that run has ended` };
  const theirs = await digest(target.checkpoint);
  const ours = await digest(source.checkpoint);
  if (ours === undefined) return { kind: 'refused', job: name, reason: 'its journal could not be read' };
  if (theirs !== undefined) {
    return theirs.hash === ours.hash ? { kind: 'already', job: name } : { kind: 'refused', job: name, reason: `the store holds another journal of job "${name}" (${theirs.lines} records, the folder's ${ours.lines})` };
  }
  await makePrivateDir(target.dir);
  // The snapshot first, then the journal it is tied to (a snapshot without its journal is never read).
  await copyIn(snapshotFileOf(source.checkpoint), snapshotFileOf(target.checkpoint));
  await copyIn(source.listing, target.listing);
  const rejects = await copyIn(source.planRejects, target.planRejects);
  await copyIn(source.notes, target.notes);
  await copyIn(source.checkpoint, target.checkpoint);
  const listing = (await stat(target.listing).catch(() => undefined)) !== undefined;
  const rows = rejects ? await planRejectCount(target.planRejects) : 0;
  return { kind: 'imported', job: name, records: ours.lines, listing, rejects: rows, torn: 0 };
}

/** Copies a file in through the one atomic writer (a crash leaves the old state or the whole file); false when there is none. */
async function copyIn(file: string, to: string): Promise<boolean> {
  let source: FileHandle;
  try {
    source = await open(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw storeWriteError(err, to, 'an imported job');
  }
  try {
    await writeFileAtomic(to, source.createReadStream({ autoClose: false }));
  } catch (err) {
    throw storeWriteError(err, to, 'an imported job');
  } finally {
    await source.close();
  }
  return true;
}

/** A journal's hash and its count of lines; undefined when there is none. */
async function digest(file: string): Promise<{ hash: string; lines: number } | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  let lines = 0;
  for (const b of bytes) if (b === 0x0a) lines += 1;
  return { hash: createHash('sha256').update(bytes).digest('hex'), lines };
}

async function planRejectCount(file: string): Promise<number> {
  try {
    const value = JSON.parse(await readFile(file, 'utf8')) as { rows?: unknown } | null;
    return Array.isArray(value?.rows) ? value.rows.length : 0;
  } catch {
    return 0;
  }
}

/** Every complete line of a JSON-lines file as an object, in order (none when it is missing). */
async function linesOf(file: string): Promise<Array<Record<string, unknown>>> {
  const values: Array<Record<string, unknown>> = [];
  await jsonlFile(file, 'an imported list').catchUp((line) => {
    const value = parseLine(line);
    if (value !== undefined) values.push(value);
  });
  return values;
}

/** Appends the folder's records the store does not have yet (compared as they will be written: `canonical`). */
async function appendNew(file: string, what: string, records: readonly Record<string, unknown>[]): Promise<PartImport> {
  const have = new RecordSet();
  for (const r of await linesOf(file)) have.add(r);
  const fresh: Record<string, unknown>[] = [];
  for (const r of records) if (have.add(r)) fresh.push(r);
  if (fresh.length > 0) await jsonlFile(file, what).append(fresh);
  return { imported: fresh.length, already: records.length - fresh.length };
}

async function importSuppressions(facts: FolderFacts, from: string, dest: string): Promise<PartImport> {
  const changes: SuppressionChange[] = [];
  for (const value of await linesOf(globalStatePaths(from).suppressions)) {
    const change = readSuppressionChange(value);
    if (change === undefined) continue;
    const company = change.company ?? facts.onlyCompany;
    changes.push({ ...change, ...(company !== undefined && { company }) });
  }
  return appendNew(globalStatePaths(dest).suppressions, 'the suppression list', changes.map((c) => ({ v: 1, ...c })));
}

async function importLedger(facts: FolderFacts, from: string, dest: string, refused: ReadonlySet<string>): Promise<PartImport> {
  const records: Record<string, unknown>[] = [];
  for (const value of await linesOf(globalStatePaths(from).ledger)) {
    const read = readLedgerLine(value);
    if (read === undefined) continue;
    const e = read.entry;
    const company = e.company ?? facts.companyOf(e.job) ?? facts.onlyCompany;
    const message = read.op === 'add' ? (e.message ?? (await facts.messageOf(e.job, e.phone))) : undefined;
    const state = e.state ?? (refused.has(e.job) ? takenInState(from, e.job) : undefined);
    const entry = { ...e, ...(company !== undefined && { company }), ...(message !== undefined && { message }), ...(state !== undefined && { state }) };
    const holder = typeof value.holder === 'string' ? { holder: value.holder } : {};
    records.push(read.op === 'add' ? { ...ledgerRecord(entry), ...holder } : takeBackRecord(entry));
  }
  return appendNew(globalStatePaths(dest).ledger, 'the ledger', records);
}

async function importWindows(facts: FolderFacts, from: string, dest: string): Promise<PartImport> {
  return importWindowFile(globalStatePaths(dest).window, globalStatePaths(from).window, facts.onlyCompany);
}

async function importEvents(facts: FolderFacts, from: string, dest: string): Promise<PartImport> {
  const log = await openEventsLog(globalStatePaths(dest).events);
  let imported = 0;
  let already = 0;
  try {
    for await (const e of readEvents(globalStatePaths(from).events)) {
      const company = e.company_id ?? facts.onlyCompany;
      const event: RecordedEvent = { ...e, ...(company !== undefined && { company_id: company }) };
      if (await log.record(event)) imported += 1;
      else already += 1;
    }
  } finally {
    await log.close();
  }
  return { imported, already };
}

async function importSyncBook(from: string, dest: string): Promise<PartImport> {
  const book = await loadSyncBook(globalStatePaths(from).sync);
  if (book.updatedAt === null && book.lastRun === null && book.conversations.size === 0) return { imported: 0, already: 0 };
  const mine = await loadSyncBook(globalStatePaths(dest).sync);
  if (mine.updatedAt !== null || mine.conversations.size > 0) return { imported: 0, already: 1, note: "the store's own bookmark kept: the next sync goes on from it" };
  await saveSyncBook(globalStatePaths(dest).sync, book);
  return { imported: 1, already: 0 };
}

/** The state id of the first messages of a job whose journal was not taken in: its own, named after the folder it came from. */
export function takenInState(folder: string, job: string): string {
  return `taken-in:${createHash('sha256').update(`${folder}\u0000${job}`).digest('hex').slice(0, 16)}`;
}

/**
 * Records told apart by `canonical`, computed only for records of the same phone: records of equal
 * canonical text have the same phone (or none), so a record whose phone is new is new without it. A
 * ledger of a million phones costs a map entry a record, not a canonical text a record.
 */
export class RecordSet {
  private readonly byPhone = new Map<unknown, { first: Record<string, unknown>; texts?: Set<string> }>();

  /** Adds `record`; false when an equal one is there already. */
  add(record: Record<string, unknown>): boolean {
    const phone = typeof record.phone === 'string' ? record.phone : undefined;
    const group = this.byPhone.get(phone);
    if (group === undefined) {
      this.byPhone.set(phone, { first: record });
      return true;
    }
    group.texts ??= new Set([canonical(group.first)]);
    const text = canonical(record);
    if (group.texts.has(text)) return false;
    group.texts.add(text);
    return true;
  }
}

/** JSON with every object's keys in order (two records that differ only in key order are one). */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

