/** A job's listing and plan rejects in the database. Filled by the job-part work. */
import type { ContactListing } from '../listing.js';
import type { RowRef } from '../store.js';
import type { Db } from './db.js';

const notYet = (): never => {
  throw new Error('not written yet');
};
export function planRejects(_db: Db, _job: string): Promise<ReadonlySet<string>> {
  return notYet();
}
export function savePlanRejects(_db: Db, _job: string, _rows: Iterable<RowRef>): Promise<void> {
  return notYet();
}
export function listing(_db: Db, _job: string, _source: string): Promise<ContactListing | undefined> {
  return notYet();
}
export function saveListing(_db: Db, _job: string, _source: string, _listing: ContactListing): Promise<void> {
  return notYet();
}
