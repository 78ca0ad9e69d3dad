import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { ContactListing, type ContactStates, type ListingReadOptions, type StateStore } from '../../checkpoint/index.js';
import { listedOf } from './contacts.js';
import { readsFor } from './reads.js';
import { loaderOptions, type ContactList } from '../load/index.js';

/** Each contact file as it is now: path, size, modification time. */
export async function listFiles(list: ContactList): Promise<string> {
  const files = await Promise.all(
    list.files.map(async (file) => {
      const s = await stat(file);
      return [file, s.size, s.mtimeMs];
    }),
  );
  return JSON.stringify(files);
}

/**
 * What a listing was read from: the contact files as they were (`files`, from listFiles), the
 * settings that read them, the message variants (a contact's variant is kept), and the rows the
 * planner rejected (left out of it). A listing of another source is not the list's any more.
 */
export function listSource(list: ContactList, files: string, planRejects: Iterable<string>): string {
  const hash = createHash('sha256');
  hash.update(files);
  hash.update(JSON.stringify(loaderOptions(list.job, list.namedColumns)));
  hash.update(JSON.stringify(list.job.message.variants));
  for (const row of [...planRejects].sort()) hash.update(`\n${row}`);
  // A follow-up's listing is of the phones it takes.
  if (list.only !== undefined) for (const phone of [...list.only].sort()) hash.update(`\nonly:${phone}`);
  return hash.digest('hex');
}

/**
 * The list's usable contacts (less the rows a plan pass rejected): the store's listing when it is of
 * the list as it is, else a full read of the list, kept for the next time. A list that is gone or
 * unreadable gives none, with the reason.
 */
export async function listedContacts(list: ContactList, store: StateStore, options: ListingReadOptions = {}): Promise<{ listing: ContactListing; problem?: string }> {
  try {
    const skipRows = await store.planRejects(list.job.name);
    const files = await listFiles(list);
    const source = listSource(list, files, skipRows);
    const kept = await store.listing(list.job.name, source, options);
    if (kept) return { listing: kept };
    const listing = new ContactListing();
    // The contact loader (and the phone and country data it needs) only when the list is read.
    const { audience } = await import('../audience/index.js');
    const { items } = audience(list, { skipRows });
    for await (const item of items) if (item.kind === 'contact') listing.add(listedOf(item.contact, list.job));
    // Only a list unchanged while it was read is kept; the cache is best effort (a read-only state folder is fine).
    if ((await listFiles(list)) === files) {
      listing.reads = await readsFor(list.files, files);
      await store.saveListing(list.job.name, source, listing).catch(() => undefined);
    }
    return { listing };
  } catch (err) {
    return { listing: new ContactListing(), problem: err instanceof Error ? err.message : String(err) };
  }
}

/** Listed contacts the job's state has not seen: pending. */
export function countPending(listing: ContactListing, states: ContactStates): number {
  return states.countUnseen(listing);
}

