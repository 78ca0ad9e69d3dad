import { open } from 'node:fs/promises';

/**
 * Makes a folder's entries durable (a new or renamed file survives a power cut).
 * Platforms that cannot open a folder for syncing (Windows) are skipped silently.
 */
export async function fsyncDir(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EBADF') throw err;
  } finally {
    await handle?.close();
  }
}
