import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { decodeSnapshotFrom, encodeSnapshot, snapshotMeta, type SnapshotMeta } from '../snapshot-codec.js';
import type { StateTable } from '../state-table.js';
import type { HeaderEvent } from '../types.js';
import { removeDeadTemps, writeFileAtomic } from '../../files/atomic.js';
import { headBytes } from './binary-file.js';
import { isProcessAlive } from '../process-alive.js';

/**
 * A job's state as of the first bytes of its journal, written beside it (`checkpoint.jsonl.snapshot`)
 * so that opening the job replays only the journal's tail. The journal stays whole and stays the
 * truth: a snapshot that is missing, unreadable, or not of this journal (its size, and the checksums
 * of its first and last 4 KiB, no longer match) is ignored and the journal replayed from its start.
 *
 * The file: the image of `../snapshot-codec.ts`, its meta line holding the position in the journal and
 * the journal's checksums.
 */

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
  // The image is taken before any await: records folded while the journal is checked are past `position`.
  const image = table.image();
  const chunks = encodeSnapshot(image, header, { position, journalCheck: await journalCheck(journalFile, position.bytes, journalIno) });
  await removeDeadTemps(file, isProcessAlive);
  await writeFileAtomic(file, chunks);
}

/**
 * The journal's snapshot, or undefined when there is none usable for this journal. Its head is read
 * first, then each column straight into the table's arrays (the file is never held whole besides them).
 */
export async function readSnapshot(journalFile: string): Promise<Snapshot | undefined> {
  let fd: number;
  try {
    fd = openSync(snapshotFileOf(journalFile), 'r');
  } catch {
    return undefined;
  }
  try {
    const size = fstatSync(fd).size;
    const meta = snapshotMeta(headBytes(fd, size)) as (SnapshotMeta & { position: JournalPosition; journalCheck: { head: number; tail: number } }) | undefined;
    if (!meta) return undefined;
    const check = await journalCheck(journalFile, meta.position.bytes, undefined).catch(() => undefined);
    if (!check || check.head !== meta.journalCheck.head || check.tail !== meta.journalCheck.tail) return undefined;
    const decoded = decodeSnapshotFrom(meta, size, (position, target) => {
      for (let done = 0; done < target.length; ) {
        const n = readSync(fd, target, done, target.length - done, position + done);
        if (n === 0) throw new Error('the snapshot ended early');
        done += n;
      }
    });
    return decoded && { ...decoded, position: meta.position };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** CRC-32 of the journal's first CHECK_BYTES and of the CHECK_BYTES before `bytes`; throws when the journal is shorter than `bytes`. */
export async function journalCheck(journalFile: string, bytes: number, ino: number | undefined): Promise<{ head: number; tail: number }> {
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

/** The size of the journal now (0 when missing). */
export async function journalSize(journalFile: string): Promise<number> {
  return (await stat(journalFile).catch(() => ({ size: 0 }))).size;
}
