/**
 * A job's folded state as bytes (a snapshot): what a backend keeps so that opening a job replays only
 * the journal after it. Pure: the file backend writes the bytes beside the journal, a database in a
 * row. The image: a `outreach-snapshot 1` line, one line of JSON (the backend's own fields, e.g. where
 * in the journal the state was folded to; the header in force there, the states kept whole, the
 * counters by tally, the column sizes, a CRC-32 of the columns), zero padding to a multiple of 8
 * bytes, the rest texts (state-columns.ts) as one JSON array (padded to 8: read only when a row is
 * decoded, so a reader that counts parses none of them), then each column's bytes (each padded to 8).
 * An image that is torn or does not check reads as none.
 *
 * Images of before read as well: their rest texts in the JSON line (`rest`), their counters with an
 * in-doubt state's attempt time in its tally (merged here: state-tally.ts's mergeAttemptTimes). A
 * program of before reads an image of now as none (it has no `rest` in its JSON line) and folds the
 * journal whole.
 */
import { crc32 } from 'node:zlib';
import { headOf, readHead } from './binary-head.js';
import { COLUMN_NAMES, allocColumns } from './state-columns.js';
import { mergeAttemptTimes } from './state-tally.js';
import { StateTable, type TableImage } from './state-table.js';
import type { ContactState, HeaderEvent } from './types.js';

const MAGIC = 'outreach-snapshot 1\n';

/** The meta line: the codec's fields and the backend's own (`extra`). */
export interface SnapshotMeta {
  v: 1;
  rows: number;
  header: HeaderEvent | null;
  /** The rest texts, in an image of before their own section. */
  rest?: string[];
  /** The rest texts' section (a JSON array of them): its length and CRC-32; absent in an image of before it. */
  restText?: { bytes: number; crc: number };
  others: Array<[string, ContactState]>;
  columns: Array<[string, number]>;
  crc: number;
  /** The counters by tally (keys, counts) and the CRC-32 of the `tally` column; absent in an image of before them. */
  tallies?: { keys: string[]; counts: number[]; crc: number };
  /** The CRC-32 of each column alone, in `columns` order: a reader may read and check one column (status reads the phones only); absent in an image of before them. */
  crcs?: number[];
  /** Where the rest texts' section starts in the image (set when read). */
  restAt: number;
  /** Where the columns start in the image (set when read). */
  offset: number;
  [extra: string]: unknown;
}

/**
 * A table's image (`StateTable.image()`, a copy) as chunks to write one after the other; `extra` goes
 * in the meta line (after `rows`). The counters by tally go in the meta line, their column last with a
 * CRC of its own (a program of before them reads the image and leaves that column out). The caller takes the image at the moment its position is read: a
 * table that goes on changing meanwhile would describe events past that position.
 */
export function encodeSnapshot(image: TableImage, header: HeaderEvent | undefined, extra: Record<string, unknown>): Buffer[] {
  const chunks: Buffer[] = [];
  const sizes: Array<[string, number]> = [];
  let crc = 0;
  let tallyCrc = 0;
  const crcs: number[] = [];
  for (const name of COLUMN_NAMES) {
    const column = image.columns[name];
    const bytes = Buffer.from(column.buffer, column.byteOffset, image.rows * column.BYTES_PER_ELEMENT);
    const own = crc32(bytes);
    crcs.push(own);
    if (name === 'tally') tallyCrc = own;
    else crc = crc32(bytes, crc);
    chunks.push(bytes, padding(bytes.length));
    sizes.push([name, bytes.length]);
  }
  const rest = Buffer.from(JSON.stringify(image.rest), 'utf8');
  const meta = {
    v: 1,
    rows: image.rows,
    ...extra,
    header: header ?? null,
    restText: { bytes: rest.length, crc: crc32(rest) },
    others: image.others.map(([phone, state]) => [phone, state]),
    columns: sizes,
    crc,
    crcs,
    ...(image.tallies && { tallies: { keys: image.tallies.keys, counts: image.tallies.counts, crc: tallyCrc } }),
  };
  const head = headOf(MAGIC, meta);
  return [head, padding(head.length), rest, padding(rest.length), ...chunks];
}

/** The meta of an image (read before its columns, so a backend can check its own fields first), or undefined for anything that is not a whole image's head. */
export function snapshotMeta(data: Buffer): SnapshotMeta | undefined {
  const head = readHead(data, MAGIC);
  if (!head) return undefined;
  const meta = head.meta as SnapshotMeta;
  if (meta.v !== 1 || !Number.isSafeInteger(meta.rows) || !Array.isArray(meta.columns)) return undefined;
  const restAt = head.end + padding(head.end).length;
  if (Array.isArray(meta.rest)) return { ...meta, restAt, offset: restAt };
  const section = meta.restText;
  if (typeof section !== 'object' || section === null || !Number.isSafeInteger(section.bytes) || section.bytes < 0 || typeof section.crc !== 'number') return undefined;
  return { ...meta, restAt, offset: restAt + section.bytes + padding(section.bytes).length };
}

/** The rest texts of an image whose meta was read (`read` as for decodeSnapshotFrom), or undefined when they do not check. */
export function snapshotRest(meta: SnapshotMeta, size: number, read: (position: number, target: Uint8Array) => void): string[] | undefined {
  if (Array.isArray(meta.rest)) return meta.rest;
  const section = meta.restText;
  if (!section || meta.restAt + section.bytes > size) return undefined;
  const bytes = Buffer.alloc(section.bytes);
  read(meta.restAt, bytes);
  if (crc32(bytes) !== section.crc) return undefined;
  let texts: unknown;
  try {
    texts = JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
  return Array.isArray(texts) && texts.every((t) => typeof t === 'string') ? (texts as string[]) : undefined;
}

/**
 * The counters by tally of an image whose meta was read, as this program keeps them (mergeAttemptTimes:
 * `ids` maps an id of the `tally` column to its counter when they are not the same), or undefined for
 * an image of before them.
 */
export function snapshotTallies(meta: SnapshotMeta): { keys: string[]; counts: number[]; crc: number; ids?: Uint32Array } | undefined {
  const kept = meta.tallies;
  if (!kept || !Array.isArray(kept.keys) || !Array.isArray(kept.counts) || kept.keys.length !== kept.counts.length) return undefined;
  if (!kept.keys.every((k) => typeof k === 'string') || !kept.counts.every((n) => Number.isSafeInteger(n))) return undefined;
  return { ...mergeAttemptTimes(kept.keys, kept.counts), crc: kept.crc };
}

/** The table and header of an image whose meta was read, or undefined when its columns do not check. */
export function decodeSnapshot(data: Buffer, meta: SnapshotMeta): { table: StateTable; header: HeaderEvent | undefined } | undefined {
  return decodeSnapshotFrom(meta, data.length, (position, target) => target.set(data.subarray(position, position + target.length)));
}

/**
 * The same, reading each column's bytes straight into its array (`read` fills `target` with the
 * image's bytes from `position`): a backend that reads a file need not hold the image besides the
 * columns it decodes into. `size` is the image's length.
 */
export function decodeSnapshotFrom(meta: SnapshotMeta, size: number, read: (position: number, target: Uint8Array) => void): { table: StateTable; header: HeaderEvent | undefined } | undefined {
  const rest = snapshotRest(meta, size, read);
  if (!rest) return undefined;
  // Room for the run to add contacts before the columns must grow (pages never written take no memory).
  const columns = allocColumns(Math.max(1024, Math.ceil(meta.rows * 1.25)));
  let offset = meta.offset;
  let crc = 0;
  let tallies = snapshotTallies(meta);
  for (const [i, name] of COLUMN_NAMES.entries()) {
    const [written, bytes] = meta.columns[i] ?? ['', -1];
    const column = columns[name];
    // An image of before the counters: they are counted again from the states.
    if (name === 'tally' && (written !== name || !tallies)) {
      tallies = undefined;
      continue;
    }
    if (written !== name || bytes !== meta.rows * column.BYTES_PER_ELEMENT || offset + bytes > size) return undefined;
    const target = new Uint8Array(column.buffer, column.byteOffset, bytes);
    read(offset, target);
    if (name === 'tally') {
      if (crc32(target) !== tallies?.crc) return undefined;
    } else crc = crc32(target, crc);
    offset += bytes + padding(bytes).length;
  }
  if (crc !== meta.crc) return undefined;
  if (!tallies) columns.tally.fill(0);
  else if (tallies.ids) remapTallies(columns.tally, meta.rows, tallies.ids);
  return {
    table: StateTable.fromImage({ rows: meta.rows, columns, rest, others: meta.others, ...(tallies && { tallies }) }),
    header: meta.header ?? undefined,
  };
}

/** The `tally` column's first `rows` ids mapped to the counters' (`ids`, snapshotTallies). */
export function remapTallies(column: Uint32Array, rows: number, ids: Uint32Array): void {
  for (let row = 0; row < rows; row++) column[row] = ids[column[row] ?? 0] ?? 0;
}

/** Where each column's bytes are in an image whose meta was read: its name, first byte and length (in `columns` order); undefined when the meta does not describe the columns this program knows. */
export function columnSpans(meta: SnapshotMeta): Map<string, { offset: number; bytes: number; crc: number | undefined }> | undefined {
  const spans = new Map<string, { offset: number; bytes: number; crc: number | undefined }>();
  let offset = meta.offset;
  for (const [i, entry] of meta.columns.entries()) {
    if (!Array.isArray(entry)) return undefined;
    const [name, bytes] = entry;
    if (typeof name !== 'string' || !Number.isSafeInteger(bytes)) return undefined;
    spans.set(name, { offset, bytes, crc: meta.crcs?.[i] });
    offset += bytes + padding(bytes).length;
  }
  return spans;
}

function padding(length: number): Buffer {
  return Buffer.alloc((8 - (length % 8)) % 8);
}
