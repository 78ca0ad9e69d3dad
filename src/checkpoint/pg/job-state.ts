/**
 * A job's state read from the database: its latest snapshot (a shortcut, as in the file backend) and
 * the journal rows after it, folded with the port's one reducer (a whole journal into columns: ColumnFold); and the snapshot written back when
 * enough came after the last. The journal is the truth: a snapshot that does not check is ignored.
 */
import { applyEvent } from '../apply-event.js';
import { ColumnFold } from '../column-fold.js';
import { parseEvent } from '../json-line.js';
import { decodeSnapshot, encodeSnapshot, snapshotMeta } from '../snapshot-codec.js';
import { StateTable } from '../state-table.js';
import type { StoreNotice } from '../store.js';
import type { ContactEvent, HeaderEvent } from '../types.js';
import { consistentRead, pack, readBytes, unpack } from './blob.js';
import type { Db, Queryable } from './db.js';

/** A snapshot is written (on close, by a reader) once this many journal rows came after the last one. */
export const SNAPSHOT_AFTER_EVENTS = 5_000;
/** While a run goes on, a snapshot is written each time this many rows were appended since the last. */
export const SNAPSHOT_DURING_RUN_EVENTS = 200_000;
/** Journal rows read per statement. */
const PAGE = 20_000;

export interface PgJobState {
  state: StateTable;
  header: HeaderEvent | undefined;
  /** The seq of the last journal row folded ('0' when none). */
  upto: string;
  /** Rows folded past the snapshot (all of them without one). */
  tail: number;
  notices: StoreNotice[];
}

/** The job was written by a newer program: refuse rather than misread it. */
export class JobVersionError extends Error {
  readonly userError = true;
  constructor(job: string, place: string, version: unknown) {
    super(`job "${job}" in the store (${place}) was written in checkpoint format ${String(version)}, which this version of outreach cannot read; upgrade outreach`);
    this.name = 'JobVersionError';
  }
}

/** Whether the job has a row (it was opened once); read in the same transaction as its state. */
export async function jobExists(c: Queryable, db: Db, job: string): Promise<boolean> {
  const { rows } = await c.query(`SELECT 1 FROM ${db.s}.jobs WHERE job = $1`, [job]);
  return rows.length > 0;
}

/** The job's state, read in one consistent transaction; with `ifOpened`, undefined for a job never opened (no row). */
export function loadPgJobState(db: Db, job: string): Promise<PgJobState>;
export function loadPgJobState(db: Db, job: string, options: { ifOpened: true }): Promise<PgJobState | undefined>;
export function loadPgJobState(db: Db, job: string, options?: { ifOpened: true }): Promise<PgJobState | undefined> {
  return consistentRead(
    (body) => db.tx(body),
    async (c) => {
      if (options?.ifOpened && !(await jobExists(c, db, job))) return undefined;
      return foldJob(c, db, job);
    },
  );
}

async function foldJob(c: Queryable, db: Db, job: string): Promise<PgJobState> {
  const snapshot = await readPgSnapshot(c, db, job);
  // A whole journal (no snapshot) is folded straight into columns (as the file backend does); a tail onto the snapshot's table.
  const whole = snapshot ? undefined : new ColumnFold();
  const apply = snapshot ? (event: ContactEvent) => applyEvent(snapshot.table, event) : (event: ContactEvent) => whole?.apply(event);
  let header = snapshot?.header;
  let upto = snapshot?.upto ?? '0';
  let tail = 0;
  const unreadable: string[] = [];
  for (;;) {
    const { rows } = await c.query<{ seq: string; event: string }>(`SELECT j.seq::text AS seq, j.event FROM ${db.s}.journal j WHERE j.job = $1 AND j.seq > $2::bigint ORDER BY j.seq LIMIT ${PAGE}`, [job, upto]);
    for (const row of rows) {
      const event = parseEvent(row.event);
      if (event === undefined) unreadable.push(row.seq);
      else if (event.t === 'header') {
        if (event.v !== 1) throw new JobVersionError(job, db.url.place, event.v);
        header = event;
      } else apply(event);
      upto = row.seq;
    }
    tail += rows.length;
    if (rows.length < PAGE) break;
  }
  const state = snapshot?.table ?? whole?.table() ?? new StateTable();
  const notices: StoreNotice[] =
    unreadable.length === 0
      ? []
      : [{ level: 'warn', message: `${unreadable.length} journal row(s) of job "${job}" in the store (${db.url.place}) are not readable events and were skipped (seq ${unreadable.slice(0, 5).join(', ')}${unreadable.length > 5 ? ', …' : ''})` }];
  return { state, header, upto, tail, notices };
}

async function readPgSnapshot(c: Queryable, db: Db, job: string): Promise<{ table: StateTable; header: HeaderEvent | undefined; upto: string } | undefined> {
  const { rows } = await c.query<{ upto: string; size: number }>(`SELECT upto::text AS upto, octet_length(data) AS size FROM ${db.s}.snapshots WHERE job = $1`, [job]);
  const row = rows[0];
  if (!row) return undefined;
  const data = await unpack(await readBytes(c, `${db.s}.snapshots`, job, row.size));
  if (!data) return undefined;
  const meta = snapshotMeta(data);
  // A snapshot of another job or of another point of the journal than its row says is not used.
  if (!meta || meta.job !== job || meta.upto !== row.upto) return undefined;
  const decoded = decodeSnapshot(data, meta);
  return decoded && { ...decoded, upto: row.upto };
}

/**
 * Writes the snapshot of `state` (the journal folded up to `upto`), unless a newer one is there. The
 * image is taken now (the table may go on changing while it is written). Throws what the database said.
 */
export async function writePgSnapshot(db: Db, job: string, state: StateTable, header: HeaderEvent | undefined, upto: string): Promise<void> {
  const data = await pack(encodeSnapshot(state.image(), header, { job, upto }));
  await db.query(
    `INSERT INTO ${db.s}.snapshots (job, upto, data) VALUES ($1, $2::bigint, $3) ON CONFLICT (job) DO UPDATE SET upto = EXCLUDED.upto, data = EXCLUDED.data, written_at = now() WHERE ${db.s}.snapshots.upto < EXCLUDED.upto`,
    [job, upto, data],
  );
}
