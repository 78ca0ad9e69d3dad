/**
 * One receiver per spool folder: two would each apply and delete the other's segments. The owner is
 * a file in the folder (`owner.json`: host, pid, since), made with O_EXCL; one left by a process that
 * is gone (or by this very pid in an earlier life: a container's pid 1, which this process does not
 * hold) is taken over. A live owner on
 * this host, or any owner on another host (a folder shared over the network cannot be checked), is
 * refused in one sentence.
 */
import { readFile, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { openPrivate } from '../files/private.js';

export const OWNER_FILE = 'owner.json';

interface Owner {
  host: string;
  pid: number;
  since: string;
}

/** Another receiver uses the spool folder. */
export class SpoolInUseError extends Error {
  readonly userError = true;
  constructor(dir: string, owner: Owner) {
    super(`the spool folder ${dir} is in use by the webhook receiver with pid ${owner.pid} on ${owner.host} (since ${owner.since}); stop it, or give this receiver a folder of its own with --spool DIR`);
    this.name = 'SpoolInUseError';
  }
}

/** The folders this process holds (an owner file of this pid and no entry here is an earlier life's). */
const held = new Set<string>();

/** Takes the folder for this process; resolves to the function that lets it go. */
export async function takeSpoolFolder(dir: string, now: () => Date = () => new Date()): Promise<() => Promise<void>> {
  const file = path.join(dir, OWNER_FILE);
  const key = path.resolve(dir);
  const me: Owner = { host: hostname(), pid: process.pid, since: now().toISOString() };
  if (held.has(key)) throw new SpoolInUseError(dir, (await readOwner(file)) ?? me);
  for (let attempt = 0; ; attempt += 1) {
    try {
      const handle = await openPrivate(file, 'wx');
      try {
        await handle.writeFile(`${JSON.stringify(me)}\n`);
        await handle.sync();
      } finally {
        await handle.close();
      }
      held.add(key);
      return async () => {
        if (!held.delete(key)) return;
        const still = await readOwner(file);
        if (still?.pid === me.pid && still.host === me.host && still.since === me.since) await unlink(file).catch(() => undefined);
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw err;
    }
    const owner = await readOwner(file);
    if (owner !== undefined && (owner.host !== me.host || (owner.pid !== me.pid && alive(owner.pid)))) throw new SpoolInUseError(dir, owner);
    // Gone (or unreadable: a write cut short): taken over.
    await unlink(file).catch(() => undefined);
  }
}

async function readOwner(file: string): Promise<Owner | undefined> {
  try {
    const value = JSON.parse(await readFile(file, 'utf8')) as Partial<Owner>;
    if (typeof value.host === 'string' && typeof value.pid === 'number' && typeof value.since === 'string') return { host: value.host, pid: value.pid, since: value.since };
  } catch {
    // unreadable: nobody's
  }
  return undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
