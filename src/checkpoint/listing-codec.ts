/**
 * A job's listing as bytes, for a backend to keep: a `outreach-listing 2` line, a line of JSON (the
 * source it was read from, the count, the files, the variants, the odd phones, the texts' size, a
 * CRC-32 of what follows), then the arrays one after the other (phones, lines, text starts, file
 * codes, variant codes, flags, texts). An image that is torn, of another version or of another source
 * reads as none (the list is read again). Pure.
 */
import { crc32 } from 'node:zlib';
import { ContactListing, type ListingColumns } from './listing.js';
import { headOf, readHead } from './binary-head.js';

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
  const meta: Meta = { v: 2, source, count: c.count, textBytes: c.texts.length, files: c.files, variants: c.variants, odd: c.odd, crc };
  return [headOf(MAGIC, meta), ...body];
}

/** The source an image was read from, or undefined when it is not a listing of this version (an import copies it as it is). */
export function listingSource(data: Buffer): string | undefined {
  const meta = readHead(data, MAGIC)?.meta as Partial<Meta> | undefined;
  return meta?.v === 2 && typeof meta.source === 'string' ? meta.source : undefined;
}

/** The listing of an image, when it is whole and of `source`; undefined otherwise. */
export function decodeListing(data: Buffer, source: string): ContactListing | undefined {
  return decodeListingFrom(data, data.length, source, (position, target) => target.set(data.subarray(position, position + target.length)));
}

/**
 * The same, from an image's first bytes (`start`: at least its head) and its `size`, each array read
 * straight into its own memory (`read` fills `target` from `position`): a backend reading a file
 * holds no copy of it besides the listing.
 */
export function decodeListingFrom(start: Buffer, size: number, source: string, read: (position: number, target: Uint8Array) => void): ContactListing | undefined {
  const head = readHead(start, MAGIC);
  if (!head) return undefined;
  const meta = head.meta as Meta;
  if (meta.v !== 2 || meta.source !== source || !Number.isSafeInteger(meta.count) || !Number.isSafeInteger(meta.textBytes)) return undefined;
  if (!Array.isArray(meta.odd) || !Array.isArray(meta.files) || !Array.isArray(meta.variants)) return undefined;
  const n = meta.count;
  let at = head.end;
  if (at + n * 8 + n * 4 + (n + 1) * 4 + n * 2 + n * 2 + n + meta.textBytes !== size) return undefined;
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
  return ContactListing.fromColumns({ count: n, phones, lines, textStart, fileOf, variantOf, flags, texts, files: meta.files, variants: meta.variants, odd: meta.odd });
}
