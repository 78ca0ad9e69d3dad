/**
 * `outreach store import`: a state folder (the file store) copied into the database, part by part,
 * straight into the tables of `migrations.ts`. Each job in one transaction: its journal's lines in
 * order (the header among them, as they are in the file), its listing's bytes, its plan's rejected
 * rows. The store-wide parts each in one transaction, leaving out what the store already has, so a
 * second import changes nothing. A job the store already holds with the same journal is "already
 * there"; with another journal (or held by a run now) it is refused, and the rest goes on.
 */
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { readLedgerLine } from '../ledger.js';
import { readSuppressionChange, type SuppressionChange } from '../suppression.js';
import type { JobImport, PartImport, StoreImporter, StorePart } from '../store-import.js';
import { readEvents } from '../file/events-log.js';
import { parseLine } from '../file/jsonl-file.js';
import { listingSource } from '../listing-codec.js';
import { pack } from './blob.js';
import { lockHolder } from '../file/lock.js';
import { globalStatePaths, jobStatePaths, type JobStatePaths } from '../file/paths.js';
import { JournalVersionError, parseEvent } from '../file/read-journal.js';
import { loadSyncBook } from '../file/sync-book.js';
import type { Db, Queryable } from './db.js';
import { unavailable } from './errors.js';
import type { PgStateStore } from './store.js';
import { folderFacts, journalFolders, type FolderFacts, type MessageKeyOf } from '../file/folder-facts.js';
import { canonical, takenInState } from '../file/import.js';
import { headerCompany, jobKeys } from '../job-key.js';
import { pgJobExists, pgJobHeader } from './job.js';

/** A folder that cannot be imported, as one sentence (exit 2). */
export class StoreImportError extends Error {
  readonly userError = true;
  constructor(message: string) {
    super(message);
    this.name = 'StoreImportError';
  }
}

/** Rows written per statement. */
const BATCH = 5_000;

export function pgStoreImporter(store: PgStateStore, folder: string, options: { messageKey?: MessageKeyOf } = {}): StoreImporter {
  const { db } = store;
  const from = path.resolve(folder);
  const global = globalStatePaths(from);
  const guarded = <T>(work: () => Promise<T>): Promise<T> =>
    work().catch((err: unknown) => {
      throw (err as { userError?: unknown }).userError === true ? err : unavailable(err, db.url);
    });
  let facts: Promise<FolderFacts> | undefined;
  const known = () => (facts ??= folderFacts(from, options.messageKey));
  /** Jobs the store holds another journal of: their first messages are another state's (never sent again as the store's job's own). */
  const refused = new Set<string>();
  const stored = { companyOf: async (key: string) => headerCompany(await pgJobHeader(db, key)), exists: (key: string) => pgJobExists(db, key) };
  const parts: Record<StorePart, () => Promise<PartImport>> = {
    suppressions: async () => importSuppressions(db, global.suppressions, await known()),
    ledger: async () => importLedger(db, global.ledger, await known(), (job) => (refused.has(job) ? takenInState(from, job) : undefined)),
    windows: async () => importWindows(db, global.window, await known()),
    events: async () => importEvents(db, global.events, await known()),
    syncBook: () => importSyncBook(db, global.sync),
  };
  return {
    from,
    into: store.location,
    jobs: () => jobsOf(from),
    job: (name) =>
      guarded(async () => {
        const company = (await known()).companyOf(name);
        const key = company === undefined ? name : await jobKeys(company, stored).key(name);
        const outcome = await importJob(db, jobStatePaths(from, name), key);
        if (outcome.kind === 'refused') refused.add(name);
        return { ...outcome, job: name };
      }),
    part: (part) => guarded(parts[part]),
    close: () => store.close(),
  };
}

/** The folder's jobs: its sub-folders that hold a journal; a folder that cannot be read is refused in one sentence. */
async function jobsOf(folder: string): Promise<string[]> {
  try {
    if (!(await stat(folder)).isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
    await readdir(folder);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new StoreImportError(`${folder} is not a state folder (${code === 'ENOENT' ? 'no such folder' : code}); give the folder that holds the jobs' folders, such as jobs/.outreach`);
  }
  return journalFolders(folder);
}

// ---- a job ---------------------------------------------------------------------------------

interface JournalRecord {
  phone: string | null;
  /** The line as the file has it. */
  text: string;
  /** A header's fingerprint. */
  fingerprint?: string;
}

/** The journal's readable lines in order; unreadable ones (a torn write) are counted in `torn` and left out, as every reader leaves them out. */
async function* journalRecords(file: string, torn: { lines: number }): AsyncGenerator<JournalRecord> {
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const raw of lines) {
    const text = raw.trim();
    if (text === '') continue;
    const event = parseEvent(text);
    if (event === undefined) torn.lines += 1;
    else if (event.t === 'header') {
      if (event.v !== 1) throw new JournalVersionError(file, event.v);
      yield { phone: null, text, fingerprint: event.fingerprint };
    } else yield { phone: event.phone, text };
  }
}

async function importJob(db: Db, paths: JobStatePaths, job: string): Promise<JobImport> {
  const refused = (reason: string): JobImport => ({ kind: 'refused', job, reason });
  const holder = await lockHolder(paths.lock);
  if (holder) return refused(`a run holds it in the folder now (pid ${holder.pid} on ${holder.host}); import it once that run has ended`);
  const s = db.s;
  return db.tx(async (c) => {
    await c.query(`INSERT INTO ${s}.jobs (job) VALUES ($1) ON CONFLICT (job) DO NOTHING`, [job]);
    const { rows } = await c.query<{ token: string; host: string | null; pid: number | null; leased: boolean | null; has: boolean }>(
      `SELECT lease_token::text AS token, owner_host AS host, owner_pid AS pid, lease_expires_at > now() AS leased,
              EXISTS (SELECT 1 FROM ${s}.journal WHERE job = $1) AS has
         FROM ${s}.jobs WHERE job = $1 FOR UPDATE`,
      [job],
    );
    const row = rows[0];
    if (row === undefined) throw new Error(`the job row of ${job} vanished`);
    if (row.has) {
      const difference = await journalDifference(c, s, job, paths.checkpoint);
      if (difference !== undefined) return refused(difference);
      await copyExtras(c, s, job, paths);
      return { kind: 'already', job };
    }
    if (row.leased === true) return refused(`a run holds it in the store now (pid ${row.pid ?? '?'} on ${row.host ?? '?'})`);
    const torn = { lines: 0 };
    let records = 0;
    let batch: JournalRecord[] = [];
    const flush = async () => {
      await c.query(
        `INSERT INTO ${s}.journal (job, phone, token, event)
         SELECT $1, x.phone, $2::bigint, x.event FROM unnest($3::text[], $4::text[]) WITH ORDINALITY AS x(phone, event, n) ORDER BY x.n`,
        [job, row.token, batch.map((r) => r.phone), batch.map((r) => r.text)],
      );
      records += batch.length;
      batch = [];
    };
    for await (const record of journalRecords(paths.checkpoint, torn)) {
      batch.push(record);
      if (batch.length >= BATCH) await flush();
    }
    if (batch.length > 0) await flush();
    const extras = await copyExtras(c, s, job, paths);
    return { kind: 'imported', job, records, torn: torn.lines, ...extras };
  });
}

/** Why the store's journal of the job is not the folder's, or undefined when it is the same. */
async function journalDifference(c: Queryable, s: string, job: string, file: string): Promise<string | undefined> {
  const records = journalRecords(file, { lines: 0 })[Symbol.asyncIterator]();
  let after = '0';
  let index = 0;
  try {
    for (;;) {
      const { rows } = await c.query<{ seq: string; event: string }>(`SELECT j.seq::text AS seq, j.event FROM ${s}.journal j WHERE j.job = $1 AND j.seq > $2::bigint ORDER BY j.seq LIMIT ${BATCH}`, [job, after]);
      for (const row of rows) {
        const next = await records.next();
        index += 1;
        if (next.done) return `the store's journal of it goes on past the folder's ${index - 1} records`;
        if (!sameRecord(row.event, next.value.text)) {
          const theirs = fingerprintOf(row.event);
          if (theirs !== undefined && next.value.fingerprint !== undefined && theirs !== next.value.fingerprint) {
            return `its message content differs: fingerprint ${theirs.slice(0, 12)} in the store, ${next.value.fingerprint.slice(0, 12)} in the folder`;
          }
          return `its journal differs from the folder's at record ${index}`;
        }
      }
      if (rows.length < BATCH) break;
      after = rows[rows.length - 1]?.seq ?? after;
    }
    const next = await records.next();
    return next.done ? undefined : `the folder's journal of it goes on past the store's ${index} records`;
  } finally {
    await records.return?.(undefined);
  }
}

function sameRecord(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return canonical(JSON.parse(a)) === canonical(JSON.parse(b));
  } catch {
    return false;
  }
}


function fingerprintOf(text: string): string | undefined {
  const value = parseLine(text);
  return value?.t === 'header' && typeof value.fingerprint === 'string' ? value.fingerprint : undefined;
}

/** The job's listing (its bytes as the file backend wrote them), its plan's rejected rows and its notes, where the store has none. */
async function copyExtras(c: Queryable, s: string, job: string, paths: JobStatePaths): Promise<{ listing: boolean; rejects: number }> {
  let listing = false;
  const data = await readFile(paths.listing).catch(() => undefined);
  const source = data && listingSource(data);
  if (data !== undefined && source !== undefined) {
    // Kept as the backend keeps every listing (packed: see blob.ts); the bytes inside are the file's.
    const r = await c.query(`INSERT INTO ${s}.listings (job, source, data) VALUES ($1, $2, $3) ON CONFLICT (job) DO NOTHING`, [job, source, await pack([data])]);
    listing = r.rowCount === 1;
  }
  let rejects = 0;
  const rows = await planRejectRows(paths.planRejects);
  if (rows !== undefined) {
    const r = await c.query(`INSERT INTO ${s}.plan_rejects (job, rows) VALUES ($1, $2::jsonb) ON CONFLICT (job) DO NOTHING`, [job, JSON.stringify(rows)]);
    if (r.rowCount === 1) rejects = rows.length;
  }
  // The job's notes (when track last read it, an experiment's decision, its follow-ups), each key where the store has none.
  for (const [key, value] of Object.entries(await jobNotes(paths.notes))) {
    await c.query(`INSERT INTO ${s}.job_notes (job, key, value) VALUES ($1, $2, $3::jsonb) ON CONFLICT (job, key) DO NOTHING`, [job, key, JSON.stringify(value)]);
  }
  return { listing, rejects };
}

/** notes.json as an object; none when there is none or it cannot be read. */
async function jobNotes(file: string): Promise<Record<string, unknown>> {
  try {
    const value: unknown = JSON.parse(await readFile(file, 'utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The rows of plan-rejects.json ("file:line"); undefined when there is none or it cannot be read (the next plan writes it again). */
async function planRejectRows(file: string): Promise<string[] | undefined> {
  try {
    const value = JSON.parse(await readFile(file, 'utf8')) as { rows?: unknown } | null;
    return Array.isArray(value?.rows) ? value.rows.filter((r): r is string => typeof r === 'string') : undefined;
  } catch {
    return undefined;
  }
}

// ---- the store-wide parts ------------------------------------------------------------------

/** One transaction for a part, holding the import's lock so that two imports of the same store take turns. */
function importTx<T>(db: Db, body: (c: Queryable) => Promise<T>): Promise<T> {
  return db.tx(async (c) => {
    await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`outreach-import:${db.url.schema}`]);
    return body(c);
  });
}

/** The complete lines of a JSON-lines file as objects (torn or foreign lines left out); none when it is missing. */
async function* jsonLines(file: string): AsyncGenerator<Record<string, unknown>> {
  const stream = createReadStream(file, { encoding: 'utf8' });
  const opened = await new Promise<boolean>((resolve, reject) => {
    stream.once('ready', () => resolve(true));
    stream.once('error', (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? resolve(false) : reject(err)));
  });
  if (!opened) return;
  for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
    const value = parseLine(line);
    if (value !== undefined) yield value;
  }
}

/** Writes `items` in batches with `write` (which answers how many rows it added): what was added, and what the store already had. */
async function inBatches<T>(items: readonly T[], write: (batch: readonly T[]) => Promise<number>): Promise<PartImport> {
  let imported = 0;
  for (let at = 0; at < items.length; at += BATCH) imported += await write(items.slice(at, at + BATCH));
  return { imported, already: items.length - imported };
}

async function importSuppressions(db: Db, file: string, facts: FolderFacts): Promise<PartImport> {
  const changes = new Map<string, SuppressionChange>();
  for await (const value of jsonLines(file)) {
    const read = readSuppressionChange(value);
    if (read === undefined) continue;
    const company = read.company ?? facts.onlyCompany;
    const change = { ...read, ...(company !== undefined && { company }) };
    changes.set(JSON.stringify(change), change);
  }
  return importTx(db, async (c) => {
    // Writers of the list take turns (a reader's refresh by seq never misses a row); the store's changes are read once, not once per row.
    await c.query(`LOCK TABLE ${db.s}.suppression_changes IN EXCLUSIVE MODE`);
    const { rows } = await c.query<{ change: Record<string, unknown> }>(`SELECT change - 'v' AS change FROM ${db.s}.suppression_changes`);
    const have = new Set(rows.map((r) => canonical(r.change)));
    const fresh = [...changes.values()].filter((change) => !have.has(canonical(change)));
    const part = await inBatches(fresh, async (batch) => {
      const r = await c.query(`INSERT INTO ${db.s}.suppression_changes (change) SELECT x.c FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(c, n) ORDER BY x.n`, [JSON.stringify(batch)]);
      return r.rowCount ?? 0;
    });
    return { imported: part.imported, already: changes.size - part.imported };
  });
}

interface LedgerRow {
  op: 'add' | 'take_back';
  id: string | null;
  phone: string;
  at: string;
  job: string;
  outside: boolean;
  channel: number | null;
  message: string | null;
  company: number | null;
  state: string | null;
}

async function importLedger(db: Db, file: string, facts: FolderFacts, stateOf: (job: string) => string | undefined): Promise<PartImport> {
  const ops = new Map<string, LedgerRow>();
  for await (const value of jsonLines(file)) {
    const read = readLedgerLine(value);
    if (!read) continue;
    const e = read.entry;
    const message = read.op === 'add' ? (e.message ?? (await facts.messageOf(e.job, e.phone))) : undefined;
    const row: LedgerRow = {
      op: read.op,
      id: e.id ?? null,
      phone: e.phone,
      at: new Date(e.at).toISOString(),
      job: e.job,
      outside: read.op === 'add' && e.outsideWindow,
      channel: read.op === 'add' ? (e.channelId ?? null) : null,
      message: message ?? null,
      company: e.company ?? facts.companyOf(e.job) ?? facts.onlyCompany ?? null,
      state: read.op === 'add' ? (e.state ?? stateOf(e.job) ?? null) : null,
    };
    ops.set(JSON.stringify(row), row);
  }
  return importTx(db, async (c) => {
    await c.query(`LOCK TABLE ${db.s}.ledger_ops IN EXCLUSIVE MODE`);
    return inBatches([...ops.values()], async (batch) => {
      const r = await c.query(
        `INSERT INTO ${db.s}.ledger_ops (op, id, phone, at, job, outside_window, channel_id, message, company_id, state)
         SELECT x.op, x.id, x.phone, x.at, x.job, x.outside, x.channel, x.message, x.company, x.state
           FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::text[], $6::boolean[], $7::integer[], $8::text[], $9::bigint[], $10::text[])
                WITH ORDINALITY AS x(op, id, phone, at, job, outside, channel, message, company, state, n)
          WHERE NOT EXISTS (SELECT 1 FROM ${db.s}.ledger_ops l
                             WHERE l.op = x.op AND l.phone = x.phone AND l.at = x.at AND l.job = x.job
                               AND l.outside_window = x.outside AND l.id IS NOT DISTINCT FROM x.id)
          ORDER BY x.n`,
        [
          batch.map((o) => o.op),
          batch.map((o) => o.id),
          batch.map((o) => o.phone),
          batch.map((o) => o.at),
          batch.map((o) => o.job),
          batch.map((o) => o.outside),
          batch.map((o) => o.channel),
          batch.map((o) => o.message),
          batch.map((o) => o.company),
          batch.map((o) => o.state),
        ],
      );
      return r.rowCount ?? 0;
    });
  });
}

async function importWindows(db: Db, file: string, facts: FolderFacts): Promise<PartImport> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { imported: 0, already: 0 };
    throw err;
  }
  const isMap = (m: unknown): m is Record<string, unknown> => typeof m === 'object' && m !== null && !Array.isArray(m);
  type WindowFile = {
    v?: unknown;
    clients?: unknown;
    phones?: unknown;
    links?: unknown;
    client_channels?: unknown;
    phone_channels?: unknown;
    client_companies?: unknown;
    phone_companies?: unknown;
  } | null;
  let value: WindowFile;
  try {
    value = JSON.parse(text) as WindowFile;
  } catch {
    value = null;
  }
  if (!value || value.v !== 1 || !isMap(value.clients) || !isMap(value.phones) || !isMap(value.links)) {
    throw new StoreImportError(`${file}: not a window store this version reads; delete it (the webhook and sync rebuild the windows from events.jsonl), then import again`);
  }
  const ms = (iso: unknown) => (typeof iso === 'string' && !Number.isNaN(Date.parse(iso)) ? Date.parse(iso) : null);
  const { clients, phones, links } = value;
  // The number each last inbound message came to (files of this version on; absent in earlier ones).
  const channelOf = (map: unknown, key: string) => {
    const id = isMap(map) ? map[key] : undefined;
    return typeof id === 'number' && Number.isInteger(id) ? id : null;
  };
  const clientIds = [...new Set([...Object.keys(clients), ...Object.keys(links)])];
  const only = facts.onlyCompany ?? null;
  const clientRows = clientIds.map((id) => ({
    id,
    phone: typeof links[id] === 'string' ? links[id] : null,
    at: ms(clients[id]),
    channel: channelOf(value.client_channels, id),
    company: channelOf(value.client_companies, id) ?? only,
  }));
  const phoneRows = Object.entries(phones).flatMap(([phone, iso]) => {
    const at = ms(iso);
    return at === null ? [] : [{ phone, at, channel: channelOf(value.phone_channels, phone), company: channelOf(value.phone_companies, phone) ?? only }];
  });
  return importTx(db, async (c) => {
    // Times only grow and a client's phone, once known, stays: a row changes only when the folder knows more.
    const a = await inBatches(clientRows, async (batch) => {
      const r = await c.query(
        `INSERT INTO ${db.s}.window_clients AS t (client_id, phone, last_inbound_at, channel_id, company_id)
         SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::integer[], $5::bigint[])
         ON CONFLICT (client_id) DO UPDATE SET phone = coalesce(t.phone, EXCLUDED.phone), last_inbound_at = greatest(t.last_inbound_at, EXCLUDED.last_inbound_at),
           channel_id = CASE WHEN EXCLUDED.last_inbound_at > coalesce(t.last_inbound_at, -1) THEN EXCLUDED.channel_id ELSE t.channel_id END,
           company_id = CASE WHEN EXCLUDED.last_inbound_at > coalesce(t.last_inbound_at, -1) THEN EXCLUDED.company_id ELSE t.company_id END
          WHERE (t.phone IS NULL AND EXCLUDED.phone IS NOT NULL) OR EXCLUDED.last_inbound_at > coalesce(t.last_inbound_at, -1)`,
        [batch.map((r) => r.id), batch.map((r) => r.phone), batch.map((r) => r.at), batch.map((r) => r.channel), batch.map((r) => r.company)],
      );
      return r.rowCount ?? 0;
    });
    const b = await inBatches(phoneRows, async (batch) => {
      const r = await c.query(
        `INSERT INTO ${db.s}.window_phones AS t (phone, last_inbound_at, channel_id, company_id)
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::integer[], $4::bigint[])
         ON CONFLICT (phone) DO UPDATE SET last_inbound_at = EXCLUDED.last_inbound_at, channel_id = EXCLUDED.channel_id, company_id = EXCLUDED.company_id
          WHERE EXCLUDED.last_inbound_at > t.last_inbound_at`,
        [batch.map((r) => r.phone), batch.map((r) => r.at), batch.map((r) => r.channel), batch.map((r) => r.company)],
      );
      return r.rowCount ?? 0;
    });
    return { imported: a.imported + b.imported, already: a.already + b.already };
  });
}

async function importEvents(db: Db, file: string, facts: FolderFacts): Promise<PartImport> {
  const events: Array<{ id: string; client: string; phone: string | null; direction: string; at: string; event: string }> = [];
  let undated = 0;
  for await (const read of readEvents(file)) {
    const company = read.company_id ?? facts.onlyCompany;
    const e = { ...read, ...(company !== undefined && { company_id: company }) };
    const at = Date.parse(e.created_at);
    if (Number.isNaN(at)) {
      undated += 1;
      continue;
    }
    events.push({ id: e.message_id, client: e.client_id, phone: e.phone ?? null, direction: e.direction, at: new Date(at).toISOString(), event: JSON.stringify(e) });
  }
  const part = await importTx(db, (c) =>
    inBatches(events, async (batch) => {
      const r = await c.query(
        `INSERT INTO ${db.s}.events (message_id, client_id, phone, direction, created_at, event)
         SELECT x.id, x.client, x.phone, x.direction, x.at, x.event::jsonb
           FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::text[]) WITH ORDINALITY AS x(id, client, phone, direction, at, event, n)
          ORDER BY x.n
         ON CONFLICT (message_id) DO NOTHING`,
        [batch.map((e) => e.id), batch.map((e) => e.client), batch.map((e) => e.phone), batch.map((e) => e.direction), batch.map((e) => e.at), batch.map((e) => e.event)],
      );
      return r.rowCount ?? 0;
    }),
  );
  return undated > 0 ? { ...part, note: `${undated} without a readable time left out` } : part;
}

async function importSyncBook(db: Db, file: string): Promise<PartImport> {
  const book = await loadSyncBook(file);
  if (book.updatedAt === null && book.lastRun === null && book.conversations.size === 0) return { imported: 0, already: 0 };
  const stored = JSON.stringify({ v: 1, updated_at: book.updatedAt, conversations: Object.fromEntries(book.conversations), last_run: book.lastRun });
  return importTx(db, async (c) => {
    const r = await c.query(`INSERT INTO ${db.s}.sync_book (id, book) VALUES (1, $1::jsonb) ON CONFLICT (id) DO NOTHING`, [stored]);
    if (r.rowCount === 1) return { imported: 1, already: 0 };
    const same = await c.query<{ same: boolean }>(`SELECT book = $1::jsonb AS same FROM ${db.s}.sync_book WHERE id = 1`, [stored]);
    return same.rows[0]?.same === true ? { imported: 0, already: 1 } : { imported: 0, already: 1, note: "the store's own bookmark kept: the next sync goes on from it" };
  });
}
