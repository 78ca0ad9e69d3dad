/**
 * A job's listing as bytes, for a backend to keep: a `outreach-listing 2` line, a line of JSON (the
 * source it was read from, the count, the files, the variants, the odd phones, the texts' size, a
 * CRC-32 of what follows), then the arrays one after the other (phones, lines, text starts, file
 * codes, variant codes, flags, texts). An image that is torn, of another version or of another source
 * reads as none (the list is read again). Pure.
 */
import { crc32 } from 'node:zlib';
import { ContactListing, type ListingColumns, type ListingPhones } from './listing.js';
import { headOf, readHead } from './binary-head.js';
import { isListingReads, type ListingReads } from './listing-reads.js';

const MAGIC = 'outreach-listing 2\n';

interface Meta {
  v: 2;
  source: string;
  count: number;
  textBytes: number;
  files: string[];
  variants: string[];
  odd: Array<[number, string]>;
  crc: number;
  /** The CRC-32 of the phones alone (a reader that counts reads them only); absent in an image of before it. */
  phonesCrc?: number;
  /** What the listing was read from (listing-reads.ts); absent in an image of before it. */
  reads?: ListingReads;
}

function parts(c: ListingColumns): Buffer[] {
  const bytes = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  return [bytes(c.phones), bytes(c.lines), bytes(c.textStart), bytes(c.fileOf), bytes(c.variantOf), bytes(c.flags), c.texts];
}

/** The image of `listing`, read from `source`, as chunks to write one after the other. */
export function encodeListing(source: string, listing: ContactListing): Buffer[] {
  const c = listing.columns();
  const body = parts(c);
  const crc = body.reduce((acc, b) => crc32(b, acc), 0);
  const meta: Meta = {
    v: 2,
    source,
    count: c.count,
    textBytes: c.texts.length,
    files: c.files,
    variants: c.variants,
    odd: c.odd,
    crc,
    phonesCrc: crc32(body[0] ?? Buffer.alloc(0)),
    ...(listing.reads && { reads: listing.reads }),
  };
  return [headOf(MAGIC, meta), ...body];
}

/** The source an image was read from, or undefined when it is not a listing of this version (an import copies it as it is). */
export function listingSource(data: Buffer): string | undefined {
  const meta = readHead(data, MAGIC)?.meta as Partial<Meta> | undefined;
  return meta?.v === 2 && typeof meta.source === 'string' ? meta.source : undefined;
}

/** The listing of an image, when it is whole and of `source` (undefined: of any source); undefined otherwise. */
export function decodeListing(data: Buffer, source: string | undefined): ContactListing | undefined {
  return decodeListingFrom(data, data.length, source, (position, target) => target.set(data.subarray(position, position + target.length)));
}

/**
 * The same, from an image's first bytes (`start`: at least its head) and its `size`, each array read
 * straight into its own memory (`read` fills `target` from `position`): a backend reading a file
 * holds no copy of it besides the listing.
 */
export function decodeListingFrom(start: Buffer, size: number, source: string | undefined, read: (position: number, target: Uint8Array) => void): ContactListing | undefined {
  const head = checkedHead(start, size, source);
  if (!head) return undefined;
  const columns = readColumns(head.meta, head.end, read);
  return columns && withReads(ContactListing.fromColumns(columns), head.meta);
}

/** The listing with the source and the reads its image names (no reads when absent or not well formed). */
function withReads(listing: ContactListing, meta: Meta): ContactListing {
  listing.source = meta.source;
  listing.reads = isListingReads(meta.reads) ? meta.reads : undefined;
  return listing;
}

/**
 * The same reading the phones only (checked by their own CRC): the other arrays are read, and the
 * whole checked, when a contact is first asked for (`read` must still reach the same image then; one
 * that no longer checks is an error naming `place`). The rest is read through and checked at once as
 * well, unless only the phones will be read (`phonesOnly`: the phones are then checked now, part by
 * part, and left in the image, read again part by part as a count walks them; the rest checked when
 * first read). Undefined for an image of before the phones' CRC.
 */
export function decodeListingPhones(
  start: Buffer,
  size: number,
  source: string | undefined,
  read: (position: number, target: Uint8Array) => void,
  place: string,
  /** Called once the other arrays were read (or could not be): the reader's file may be closed then. */
  done: () => void = () => undefined,
  options: { phonesOnly?: boolean } = {},
): ContactListing | undefined {
  const head = checkedHead(start, size, source);
  if (!head || typeof head.meta.phonesCrc !== 'number') return undefined;
  const { count, phonesCrc } = head.meta;
  if (options.phonesOnly === true) {
    // The phones checked now, part by part (a damaged listing reads as none), and left in the image.
    const phones = phonesIn(read, head.end, count, phonesCrc, place);
    try {
      readThrough(phones.parts());
    } catch {
      return undefined;
    }
    return withReads(ContactListing.ofPhones(count, phones, head.meta.odd, restOf(head.meta, head.end, read, place, done)), head.meta);
  }
  const phones = new Float64Array(count);
  const bytes = new Uint8Array(phones.buffer);
  read(head.end, bytes);
  if (crc32(bytes) !== phonesCrc) return undefined;
  // The rest is checked now (read through once, not kept): a damaged listing reads as none, never later.
  let crc = crc32(bytes);
  const part = Buffer.allocUnsafe(Math.min(1 << 20, Math.max(1, size - head.end - bytes.length)));
  for (let at = head.end + bytes.length; at < size; at += part.length) {
    const piece = part.subarray(0, Math.min(part.length, size - at));
    read(at, piece);
    crc = crc32(piece, crc);
  }
  if (crc !== head.meta.crc) return undefined;
  return withReads(ContactListing.ofPhones(count, phones, head.meta.odd, restOf(head.meta, head.end, read, place, done)), head.meta);
}

/** How a listing read in part reads its arrays whole on first need (checked whole: an error naming `place` when they do not check), `done` called then. */
function restOf(meta: Meta, start: number, read: (position: number, target: Uint8Array) => void, place: string, done: () => void): () => ListingColumns {
  return () => {
    let columns: ListingColumns | undefined;
    try {
      columns = readColumns(meta, start, read);
    } catch {
      columns = undefined;
    } finally {
      done();
    }
    if (!columns) throw new ListingReadError(place);
    return columns;
  };
}

/** Goes through `parts` to their end (where a read part by part is checked). */
function readThrough(parts: Iterable<Float64Array>): void {
  const it = parts[Symbol.iterator]();
  while (it.next().done !== true) {
    // each part is only read
  }
}

/** Rows of phones read at once when they are read part by part (512 KB). */
const PART_ROWS = 1 << 16;

/** The `count` phones of an image at `at`, left there: read part by part or whole, each read checked against `crc` (an error naming `place` when they do not check). */
function phonesIn(read: (position: number, target: Uint8Array) => void, at: number, count: number, crc: number, place: string): ListingPhones {
  return {
    *parts() {
      const part = new Float64Array(Math.min(PART_ROWS, count));
      let sum = 0;
      for (let row = 0; row < count; row += part.length) {
        const piece = part.subarray(0, Math.min(part.length, count - row));
        const bytes = new Uint8Array(piece.buffer, 0, piece.byteLength);
        read(at + row * 8, bytes);
        sum = crc32(bytes, sum);
        yield piece;
      }
      if (sum !== crc) throw new ListingReadError(place);
    },
    whole() {
      const phones = new Float64Array(count);
      const bytes = new Uint8Array(phones.buffer);
      read(at, bytes);
      if (crc32(bytes) !== crc) throw new ListingReadError(place);
      return phones;
    },
  };
}

/** The listing kept for a job no longer checks once read whole (it changed on disk after its phones were read). */
export class ListingReadError extends Error {
  readonly userError = true;
  constructor(place: string) {
    super(`the listing ${place} changed or is damaged; run the command again (the list is then read again)`);
    this.name = 'ListingReadError';
  }
}

function checkedHead(start: Buffer, size: number, source: string | undefined): { meta: Meta; end: number } | undefined {
  const head = readHead(start, MAGIC);
  if (!head) return undefined;
  const meta = head.meta as Meta;
  if (meta.v !== 2 || typeof meta.source !== 'string' || (source !== undefined && meta.source !== source) || !Number.isSafeInteger(meta.count) || !Number.isSafeInteger(meta.textBytes)) return undefined;
  if (!Array.isArray(meta.odd) || !Array.isArray(meta.files) || !Array.isArray(meta.variants)) return undefined;
  const n = meta.count;
  if (head.end + n * 8 + n * 4 + (n + 1) * 4 + n * 2 + n * 2 + n + meta.textBytes !== size) return undefined;
  return { meta, end: head.end };
}

function readColumns(meta: Meta, start: number, read: (position: number, target: Uint8Array) => void): ListingColumns | undefined {
  const n = meta.count;
  let at = start;
  let crc = 0;
  const next = <T extends ArrayBufferView>(make: (length: number) => T, length: number): T => {
    const array = make(length);
    const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    read(at, bytes);
    crc = crc32(bytes, crc);
    at += bytes.length;
    return array;
  };
  const phones = next((k) => new Float64Array(k), n);
  const lines = next((k) => new Int32Array(k), n);
  const textStart = next((k) => new Uint32Array(k), n + 1);
  const fileOf = next((k) => new Uint16Array(k), n);
  const variantOf = next((k) => new Uint16Array(k), n);
  const flags = next((k) => new Uint8Array(k), n);
  const texts = next((k) => Buffer.alloc(k), meta.textBytes);
  if (crc !== meta.crc) return undefined;
  return { count: n, phones, lines, textStart, fileOf, variantOf, flags, texts, files: meta.files, variants: meta.variants, odd: meta.odd };
}
