/** The reply windows in the database. Filled by the lists work. */
import type { WindowLookup, WindowStore } from '../windows.js';
import type { Db } from './db.js';

const notYet = (): never => {
  throw new Error('not written yet');
};
export function pgWindows(_db: Db): Promise<WindowLookup> {
  return notYet();
}
export function openPgWindowStore(_db: Db): Promise<WindowStore> {
  return notYet();
}
