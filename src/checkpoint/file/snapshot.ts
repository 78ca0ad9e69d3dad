import { open, readdir, readFile, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { COLUMN_NAMES, allocColumns } from '../state-columns.js';
import { StateTable } from '../state-table.js';
import type { ContactState, HeaderEvent } from '../types.js';
import { headOf, readHead, writeChunksAtomic } from './binary-file.js';
import { isProcessAlive } from './lock.js';

/**
 * A job's state as of the first bytes of its journal, written beside it (`checkpoint.jsonl.snapshot`)
 * so that opening the job replays only the journal's tail. The journal stays whole and stays the
 * truth: a snapshot that is missing, unreadable, or not of this journal (its size, and the checksums
 * of its first and last 4 KiB, no longer match) is ignored and the journal replayed from its start.
 *
 * The file: a `outreach-snapshot 1` line, one line of JSON (the position in the journal, the header in
 * force there, the rest texts and the states kept whole, the column sizes, a CRC-32 of the columns),
 * zero padding to a multiple of 8 bytes, then each column's bytes (each padded to 8).
 */

const MAGIC = 'outreach-snapshot 1\n';
/** Bytes of the journal checksummed at its start and before the snapshot's position. */
const CHECK_BYTES = 4096;

/** Where in the journal a state was folded to. */
export interface JournalPosition {
  /** The byte after the last line folded. */
  bytes: number;
  /** Lines before that byte. */
  lines: number;
  /** Contact events in them. */
  events: number;
}

export interface Snapshot {
  table: StateTable;
  header: HeaderEvent | undefined;
  position: JournalPosition;
}

interface Meta {
  v: 1;
  rows: number;
  position: JournalPosition;
  journalCheck: { head: number; tail: number };
  header: HeaderEvent | null;
  rest: string[];
  others: Array<[string, ContactState]>;
  columns: Array<[string, number]>;
  crc: number;
}

/** The snapshot file of a journal. */
export function snapshotFileOf(journalFile: string): string {
  return `${journalFile}.snapshot`;
}

/** Writes the snapshot of `table` (the journal's state at `position`) atomically: temp file, fsync, rename, folder fsync. */
export async function writeSnapshot(
  journalFile: string,
  table: StateTable,
  header: HeaderEvent | undefined,
  position: JournalPosition,
  /** The inode of the journal the state was read from: a journal replaced since (compacted by a run) gets no snapshot. */
  journalIno?: number,
): Promise<void> {
  const file = snapshotFileOf(journalFile);
  const image = table.image();
  const chunks: Buffer[] = [];
  const sizes: Array<[string, number]> = [];
  let crc = 0;
  for (const name of COLUMN_NAMES) {
    const column = image.columns[name];
    const bytes = Buffer.from(column.buffer, column.byteOffset, image.rows * column.BYTES_PER_ELEMENT);
    crc = crc32(bytes, crc);
    chunks.push(bytes, padding(bytes.length));
    sizes.push([name, bytes.length]);
  }
  const meta: Meta = {
    v: 1,
    rows: image.rows,
    position,
    journalCheck: await journalCheck(journalFile, position.bytes, journalIno),
    header: header ?? null,
    rest: [...image.rest],
    others: image.others.map(([phone, state]) => [phone, state]),
    columns: sizes,
    crc,
  };
  const head = headOf(MAGIC, meta);

  await removeStaleTemps(file);
  await writeChunksAtomic(file, [head, padding(head.length), ...chunks]);
}

/** The journal's snapshot, or undefined when there is none usable for this journal. */
export async function readSnapshot(journalFile: string): Promise<Snapshot | undefined> {
  let data: Buffer;
  try {
    data = await readFile(snapshotFileOf(journalFile));
  } catch {
    return undefined;
  }
  const meta = readMeta(data);
  if (!meta) return undefined;
  const check = await journalCheck(journalFile, meta.position.bytes, undefined).catch(() => undefined);
  if (!check || check.head !== meta.journalCheck.head || check.tail !== meta.journalCheck.tail) return undefined;

  // Room for the run to add contacts before the columns must grow.
  const columns = allocColumns(Math.max(1024, Math.ceil(meta.rows * 1.25)));
  let offset = meta.offset;
  let crc = 0;
  for (const [i, name] of COLUMN_NAMES.entries()) {
    const [written, bytes] = meta.columns[i] ?? ['', -1];
    const column = columns[name];
    if (written !== name || bytes !== meta.rows * column.BYTES_PER_ELEMENT || offset + bytes > data.length) return undefined;
    const slice = data.subarray(offset, offset + bytes);
    crc = crc32(slice, crc);
    new Uint8Array(column.buffer, column.byteOffset, bytes).set(slice);
    offset += bytes + padding(bytes).length;
  }
  if (crc !== meta.crc) return undefined;
  return {
    table: StateTable.fromImage({ rows: meta.rows, columns, rest: meta.rest, others: meta.others }),
    header: meta.header ?? undefined,
    position: meta.position,
  };
}

/** The meta line and where the columns start, or undefined for a file that is not a whole snapshot. */
function readMeta(data: Buffer): (Meta & { offset: number }) | undefined {
  const head = readHead(data, MAGIC);
  if (!head) return undefined;
  const meta = head.meta as Meta;
  if (meta.v !== 1 || !Number.isSafeInteger(meta.rows) || !Array.isArray(meta.columns) || !Array.isArray(meta.rest)) return undefined;
  return { ...meta, offset: head.end + padding(head.end).length };
}

/** CRC-32 of the journal's first CHECK_BYTES and of the CHECK_BYTES before `bytes`; throws when the journal is shorter than `bytes`. */
async function journalCheck(journalFile: string, bytes: number, ino: number | undefined): Promise<{ head: number; tail: number }> {
  const handle = await open(journalFile, 'r');
  try {
    const { size, ino: now } = await handle.stat();
    if (ino !== undefined && now !== ino) throw new Error(`${journalFile} was replaced while it was read`);
    if (size < bytes) throw new Error(`${journalFile} is shorter than its snapshot`);
    const read = async (from: number, length: number) => {
      const buf = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buf, 0, length, from);
      return crc32(buf.subarray(0, bytesRead));
    };
    return { head: await read(0, Math.min(CHECK_BYTES, bytes)), tail: await read(Math.max(0, bytes - CHECK_BYTES), Math.min(CHECK_BYTES, bytes)) };
  } finally {
    await handle.close();
  }
}

function padding(length: number): Buffer {
  return Buffer.alloc((8 - (length % 8)) % 8);
}

/** Temp files of snapshot writes that a crash left behind (their process is gone). */
async function removeStaleTemps(file: string): Promise<void> {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.`;
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const pid = Number(name.slice(prefix.length, -'.tmp'.length));
    if (name.startsWith(prefix) && name.endsWith('.tmp') && Number.isSafeInteger(pid) && !isProcessAlive(pid)) {
      await unlink(path.join(dir, name)).catch(() => undefined);
    }
  }
}

/** The size of the journal now (0 when missing). */
export async function journalSize(journalFile: string): Promise<number> {
  return (await stat(journalFile).catch(() => ({ size: 0 }))).size;
}
