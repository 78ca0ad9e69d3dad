/**
 * `outreach store migrate`: the migrations a database store lacks, applied now and nothing else (for
 * setups where the runners' role may not create tables). A store that cannot be reached, refuses us,
 * or may not be changed by this role is a StoreUnavailableError naming it.
 */
import { migrate, type Db } from './db.js';
import { unavailable } from './errors.js';
import { LATEST_VERSION, MIGRATIONS } from './migrations.js';

export interface MigrateOutcome {
  /** The migrations applied now, oldest first; none when the store was up to date. */
  applied: Array<{ version: number; name: string }>;
  /** The version the store's schema is at now. */
  version: number;
  /** The schema that holds the store's tables. */
  schema: string;
}

export async function migratePgStore(db: Db): Promise<MigrateOutcome> {
  let versions: number[];
  try {
    versions = await migrate(db);
  } catch (err) {
    throw unavailable(err, db.url);
  }
  const applied = MIGRATIONS.filter((m) => versions.includes(m.version)).map((m) => ({ version: m.version, name: m.name }));
  return { applied, version: LATEST_VERSION, schema: db.url.schema };
}
