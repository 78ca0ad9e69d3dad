import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { decodeListingFrom, encodeListing } from '../listing-codec.js';
import { headBytes } from './binary-file.js';
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

/** The job's listing when it is of `source`: its head read first, then each array straight into the listing's memory. */
export async function readListing(file: string, source: string): Promise<ContactListing | undefined> {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const size = fstatSync(fd).size;
    const start = headBytes(fd, size);
    return decodeListingFrom(start, size, source, (position, target) => {
      for (let done = 0; done < target.length; ) {
        const n = readSync(fd, target, done, target.length - done, position + done);
        if (n === 0) throw new Error('the listing ended early');
        done += n;
      }
    });
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
