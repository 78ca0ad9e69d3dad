import { readFile } from 'node:fs/promises';
import { decodeListing, encodeListing } from '../listing-codec.js';
import type { ContactListing } from '../listing.js';
import { writeChunksAtomic } from './binary-file.js';

/**
 * The listing of a job (`listing.bin`): the image of `../listing-codec.ts`, written atomically; one
 * that is unreadable, of another version or of another source reads as none (the list is read again).
 */

export async function writeListing(file: string, source: string, listing: ContactListing): Promise<void> {
  await writeChunksAtomic(file, encodeListing(source, listing));
}

export { listingSource } from '../listing-codec.js';

export async function readListing(file: string, source: string): Promise<ContactListing | undefined> {
  let data: Buffer;
  try {
    data = await readFile(file);
  } catch {
    return undefined;
  }
  return decodeListing(data, source);
}
