import type { Db } from './db.js';
import { unavailable } from './errors.js';

/** Whether the database answers now (one `SELECT 1` through the pool); a StoreUnavailableError naming host, port and database (never the password) otherwise. */
export async function pingDb(db: Db): Promise<void> {
  try {
    await db.pool.query('SELECT 1');
  } catch (err) {
    throw unavailable(err, db.url);
  }
}
