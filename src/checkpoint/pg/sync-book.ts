/** The bookmark of `sync` in the database: one row of `sync_book`, the book as jsonb (the file backend's sync.json). */
import type { SyncBook } from '../sync.js';
import type { Db } from './db.js';
import { readDb, writeTx } from './write.js';

interface StoredBook {
  v: 1;
  updated_at: string | null;
  conversations: Record<string, number>;
  last_run: string | null;
}

export async function loadPgSyncBook(db: Db): Promise<SyncBook> {
  const { rows } = await readDb(db, () => db.query<{ book: Partial<StoredBook> | null }>(`SELECT book FROM ${db.s}.sync_book WHERE id = 1`));
  const book = rows[0]?.book;
  const conversations = new Map<string, number>();
  for (const [id, newest] of Object.entries(book?.conversations ?? {})) {
    if (typeof newest === 'number' && Number.isInteger(newest) && newest >= 0) conversations.set(id, newest);
  }
  return {
    updatedAt: typeof book?.updated_at === 'string' ? book.updated_at : null,
    conversations,
    lastRun: typeof book?.last_run === 'string' ? book.last_run : null,
  };
}

export async function savePgSyncBook(db: Db, book: SyncBook): Promise<void> {
  const stored: StoredBook = { v: 1, updated_at: book.updatedAt, conversations: Object.fromEntries(book.conversations), last_run: book.lastRun };
  await writeTx(db, 'the sync bookmark', (c) =>
    c.query(`INSERT INTO ${db.s}.sync_book (id, book) VALUES (1, $1::jsonb) ON CONFLICT (id) DO UPDATE SET book = EXCLUDED.book`, [JSON.stringify(stored)]),
  );
}
