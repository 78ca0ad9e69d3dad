import { open, readFile, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { ContactListing } from '../listing.js';
import { fsyncDir } from './fsync-dir.js';

/**
 * The listing of a job (`listing.bin`): a `outreach-listing 1` line, a line of JSON (the source it was
 * read from, the count, the odd phones, a CRC-32 of the columns), zero padding to 8 bytes, then the
 * phones (float64) and the lines (int32). Written atomically; one that is unreadable or of another
 * source reads as none.
 */

const MAGIC = 'outreach-listing 1\n';

interface Meta {
  v: 1;
  source: string;
  count: number;
  odd: Array<[number, string]>;
  crc: number;
}

export async function writeListing(file: string, source: string, listing: ContactListing): Promise<void> {
  const { phones, lines, odd } = listing.columns();
  const phoneBytes = Buffer.from(phones.buffer, phones.byteOffset, phones.byteLength);
  const lineBytes = Buffer.from(lines.buffer, lines.byteOffset, lines.byteLength);
  const meta: Meta = { v: 1, source, count: listing.size, odd, crc: crc32(lineBytes, crc32(phoneBytes)) };
  const head = Buffer.from(`${MAGIC}${JSON.stringify(meta)}\n`, 'utf8');
  const temp = `${file}.${process.pid}.tmp`;
  const handle = await open(temp, 'w');
  try {
    for (const chunk of [head, Buffer.alloc((8 - (head.length % 8)) % 8), phoneBytes, lineBytes]) {
      for (let offset = 0; offset < chunk.length; ) offset += (await handle.write(chunk, offset)).bytesWritten;
    }
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw err;
  }
  await handle.close();
  await rename(temp, file);
  await fsyncDir(path.dirname(file));
}

export async function readListing(file: string, source: string): Promise<ContactListing | undefined> {
  let data: Buffer;
  try {
    data = await readFile(file);
  } catch {
    return undefined;
  }
  if (data.subarray(0, MAGIC.length).toString('utf8') !== MAGIC) return undefined;
  const end = data.indexOf(0x0a, MAGIC.length);
  if (end === -1) return undefined;
  let meta: Meta;
  try {
    meta = JSON.parse(data.toString('utf8', MAGIC.length, end)) as Meta;
  } catch {
    return undefined;
  }
  if (meta.v !== 1 || meta.source !== source || !Number.isSafeInteger(meta.count) || !Array.isArray(meta.odd)) return undefined;
  const start = end + 1 + ((8 - ((end + 1) % 8)) % 8);
  const phoneLength = meta.count * 8;
  const lineLength = meta.count * 4;
  if (start + phoneLength + lineLength > data.length) return undefined;
  const phoneSlice = data.subarray(start, start + phoneLength);
  const lineSlice = data.subarray(start + phoneLength, start + phoneLength + lineLength);
  if (crc32(lineSlice, crc32(phoneSlice)) !== meta.crc) return undefined;
  const phones = new Float64Array(meta.count);
  new Uint8Array(phones.buffer).set(phoneSlice);
  const lines = new Int32Array(meta.count);
  new Uint8Array(lines.buffer).set(lineSlice);
  return ContactListing.fromColumns(phones, lines, meta.count, meta.odd);
}
