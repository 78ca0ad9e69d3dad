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
  const head = readHead(data, MAGIC);
  if (!head) return undefined;
  const meta = head.meta as Meta;
  if (meta.v !== 2 || meta.source !== source || !Number.isSafeInteger(meta.count) || !Number.isSafeInteger(meta.textBytes)) return undefined;
  if (!Array.isArray(meta.odd) || !Array.isArray(meta.files) || !Array.isArray(meta.variants)) return undefined;
  const n = meta.count;
  const sizes = [n * 8, n * 4, (n + 1) * 4, n * 2, n * 2, n, meta.textBytes];
  let at = head.end;
  if (at + sizes.reduce((a, b) => a + b, 0) !== data.length) return undefined;
  const slices = sizes.map((size) => data.subarray(at, (at += size)));
  if (slices.reduce((acc, b) => crc32(b, acc), 0) !== meta.crc) return undefined;
  const typed = <T extends ArrayBufferView>(slice: Buffer, make: (buffer: ArrayBuffer) => T): T => {
    const buffer = new ArrayBuffer(slice.length);
    new Uint8Array(buffer).set(slice);
    return make(buffer);
  };
  const [phones, lines, textStart, fileOf, variantOf, flags, texts] = slices as [Buffer, Buffer, Buffer, Buffer, Buffer, Buffer, Buffer];
  return ContactListing.fromColumns({
    count: n,
    phones: typed(phones, (b) => new Float64Array(b)),
    lines: typed(lines, (b) => new Int32Array(b)),
    textStart: typed(textStart, (b) => new Uint32Array(b)),
    fileOf: typed(fileOf, (b) => new Uint16Array(b)),
    variantOf: typed(variantOf, (b) => new Uint16Array(b)),
    flags: typed(flags, (b) => new Uint8Array(b)),
    texts: Buffer.from(texts),
    files: meta.files,
    variants: meta.variants,
    odd: meta.odd,
  });
}
