/**
 * How far `sync` got, `<stateDir>/sync.json`:
 *   {"v":1,"updated_at":"<platform's updated_at of the newest change fully read>"|null,
 *    "conversations":{"<conversation id>":<newest message id recorded>},"last_run":"<iso>"}
 * Replaced atomically; a missing file means "never synced".
 */
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../../files/atomic.js';
import { storeWriteError } from './state-file-error.js';
import type { SyncBook } from '../sync.js';

interface SyncFile {
  v: 1;
  updated_at: string | null;
  conversations: Record<string, number>;
  last_run: string | null;
}

/** A sync.json a person must fix (printed without a stack trace). */
export class SyncStateError extends Error {
  readonly userError = true;
  constructor(message: string) {
    super(message);
    this.name = 'SyncStateError';
  }
}

export async function loadSyncBook(file: string): Promise<SyncBook> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      return { updatedAt: null, conversations: new Map(), lastRun: null };
    }
    throw err;
  }
  let value: Partial<SyncFile> | null;
  try {
    value = JSON.parse(text) as Partial<SyncFile> | null;
  } catch {
    value = null;
  }
  const conversations = value?.conversations;
  if (
    !value ||
    value.v !== 1 ||
    (value.updated_at !== null && typeof value.updated_at !== 'string') ||
    typeof conversations !== 'object' ||
    conversations === null
  ) {
    throw new SyncStateError(
      `${file}: not a sync state this version can read; delete it to sync again from the start (or pass --since)`,
    );
  }
  const map = new Map<string, number>();
  for (const [id, newest] of Object.entries(conversations)) {
    if (typeof newest === 'number' && Number.isInteger(newest) && newest >= 0) map.set(id, newest);
  }
  return { updatedAt: value.updated_at, conversations: map, lastRun: value.last_run ?? null };
}

export async function saveSyncBook(file: string, book: SyncBook): Promise<void> {
  const data: SyncFile = {
    v: 1,
    updated_at: book.updatedAt,
    conversations: Object.fromEntries(book.conversations),
    last_run: book.lastRun,
  };
  await writeFileAtomic(file, JSON.stringify(data) + '\n').catch((err: unknown) => {
    throw storeWriteError(err, file, 'the sync bookmark');
  });
}
