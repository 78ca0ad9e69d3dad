import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';
import { StoreUnavailableError } from '../errors.js';

/**
 * Whether the state folder can be used now: it is a folder this process may read and write, or it
 * does not exist yet and its nearest existing parent is one (the store makes it at its first write).
 * Nothing is written. Otherwise a StoreUnavailableError naming the folder and why.
 */
export async function pingFolder(dir: string): Promise<void> {
  let place = path.resolve(dir);
  for (;;) {
    try {
      const s = await stat(place);
      if (!s.isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
      await access(place, constants.R_OK | constants.W_OK | constants.X_OK);
      return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const parent = path.dirname(place);
      if (code === 'ENOENT' && parent !== place) {
        place = parent;
        continue;
      }
      throw new StoreUnavailableError(`the state folder ${dir} cannot be used: ${why(err, place, dir)}`, 'fix the folder (or its disk), or pass another --state-dir', { cause: err });
    }
  }
}

function why(err: unknown, place: string, dir: string): string {
  const at = place === path.resolve(dir) ? 'it' : place;
  switch ((err as NodeJS.ErrnoException).code) {
    case 'ENOTDIR':
    case 'EEXIST':
      return `${at} is a file, not a folder`;
    case 'EACCES':
    case 'EPERM':
      return `${at} may not be read or written (${(err as NodeJS.ErrnoException).code})`;
    case 'EROFS':
      return `${at} is on a read-only file system`;
    default:
      return err instanceof Error ? err.message : String(err);
  }
}
