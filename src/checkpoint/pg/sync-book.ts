/** The bookmark of `sync` in the database. Filled by the lists work. */
import type { SyncBook } from '../sync.js';
import type { Db } from './db.js';

const notYet = (): never => {
  throw new Error('not written yet');
};
export function loadPgSyncBook(_db: Db): Promise<SyncBook> {
  return notYet();
}
export function savePgSyncBook(_db: Db, _book: SyncBook): Promise<void> {
  return notYet();
}
