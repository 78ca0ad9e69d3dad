import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { decodeListingFrom, decodeListingPhones, encodeListing } from '../listing-codec.js';
import { headBytes } from './binary-file.js';
import type { ContactListing } from '../listing.js';
import type { ListingReadOptions } from '../store.js';
import { writeFileAtomic } from '../../files/atomic.js';

/**
 * The listing of a job (`listing.bin`): the image of `../listing-codec.ts`, written atomically; one
 * that is unreadable, of another version or of another source reads as none (the list is read again).
 */

export async function writeListing(file: string, source: string, listing: ContactListing): Promise<void> {
  await writeFileAtomic(file, encodeListing(source, listing));
}

export { listingSource } from '../listing-codec.js';

/**
 * The job's listing when it is of `source` (undefined: whatever its source): its head read first, then its phones (all that counting
 * pending contacts needs); the other arrays are read straight into the listing's memory when a
 * contact is first asked for, from the file as it was opened (a listing written since does not
 * mix in). The rest of the file is checked at once, unless only the phones will be read
 * (`phonesOnly`: then when first read). An image of before the phones' own CRC is read whole at once.
 */
export async function readListing(file: string, source: string | undefined, options: ListingReadOptions = {}): Promise<ContactListing | undefined> {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  let kept = false;
  let open = true;
  const close = () => {
    if (open) closeSync(fd);
    open = false;
  };
  try {
    const size = fstatSync(fd).size;
    const start = headBytes(fd, size);
    const read = (position: number, target: Uint8Array) => {
      for (let done = 0; done < target.length; ) {
        const n = readSync(fd, target, done, target.length - done, position + done);
        if (n === 0) throw new Error('the listing ended early');
        done += n;
      }
    };
    const token = {};
    const lazy = decodeListingPhones(
      start,
      size,
      source,
      read,
      file,
      () => {
        closer.unregister(token);
        close();
      },
      options,
    );
    if (lazy) {
      // The file stays open until the other arrays are read, or the listing is collected.
      kept = true;
      closer.register(lazy, fd, token);
      return lazy;
    }
    return decodeListingFrom(start, size, source, read);
  } catch {
    return undefined;
  } finally {
    if (!kept) close();
  }
}

const closer = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
});
