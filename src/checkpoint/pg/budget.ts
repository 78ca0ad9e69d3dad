/**
 * The store-wide messaging-limit budget in the database: table `budget_holds`, one row per holder
 * (a process's run) with the places it took and has not used yet, and when they lapse.
 *
 * A take is one transaction under the table's EXCLUSIVE lock, so takes of every process follow one
 * another: it counts the ledger's distinct recipients messaged outside their window in the rolling
 * 24 hours and every unexpired hold, and grants what the limit leaves. A ledger entry that uses a
 * place lowers its holder's row in the ledger's own transaction (`ledger.ts`); that update waits for
 * a take under way and a take waits for it, so a take never sees the entry without the lowered hold
 * or the other way round. Places lapse five minutes (the database's clock) after the holder's last
 * take or use, so a process that died frees them.
 */
import { randomUUID } from 'node:crypto';
import type { BudgetHolder } from '../ledger.js';
import type { Db, Queryable } from './db.js';
import { writeTx } from './write.js';

const DAY_MS = 86_400_000;
/** How long places stay held without a take or a use. */
export const HOLD_LAPSES = "interval '5 minutes'";

export class PgBudgetHolder implements BudgetHolder {
  /** The holder's row. */
  readonly id = randomUUID();
  private count = 0;

  constructor(private readonly db: Db) {}

  get held(): number {
    return this.count;
  }

  /** A ledger entry used one place (the ledger's write lowers the row). */
  used(): void {
    this.count = Math.max(0, this.count - 1);
  }

  async take(want: number, limit: number, now: number): Promise<number> {
    if (!(want > 0)) return 0;
    const s = this.db.s;
    const { granted, held } = await writeTx(this.db, 'the messaging-limit budget', async (c) => {
      await c.query(`LOCK TABLE ${s}.budget_holds IN EXCLUSIVE MODE`);
      await c.query(`DELETE FROM ${s}.budget_holds WHERE expires_at <= now()`);
      const room = await usedPlaces(c, s, now - DAY_MS, this.id);
      const grant = Math.max(0, Math.min(Math.floor(want), limit - room.ledger - room.others - room.mine));
      await c.query(
        `INSERT INTO ${s}.budget_holds (holder, held, expires_at) VALUES ($1, $2, now() + ${HOLD_LAPSES})
         ON CONFLICT (holder) DO UPDATE SET held = EXCLUDED.held, expires_at = EXCLUDED.expires_at`,
        [this.id, room.mine + grant],
      );
      return { granted: grant, held: room.mine + grant };
    });
    // What the row says: places that lapsed while this holder paused are no longer its own.
    this.count = held;
    return granted;
  }

  async release(): Promise<void> {
    await writeTx(this.db, 'the messaging-limit budget', (c) => c.query(`DELETE FROM ${this.db.s}.budget_holds WHERE holder = $1`, [this.id]));
    this.count = 0;
  }
}

export function pgBudgetHolder(db: Db): Promise<BudgetHolder> {
  return Promise.resolve(new PgBudgetHolder(db));
}

/** The ledger's distinct recipients outside their window since `since` (epoch ms), and the places held (by others, by `holder`). */
async function usedPlaces(c: Queryable, s: string, since: number, holder: string): Promise<{ ledger: number; others: number; mine: number }> {
  const { rows } = await c.query<{ ledger: number; others: number; mine: number }>(
    `SELECT
       (SELECT count(DISTINCT a.phone) FROM ${s}.ledger_ops a
         WHERE a.op = 'add' AND a.outside_window AND a.at > $1
           AND NOT EXISTS (SELECT 1 FROM ${s}.ledger_ops t
                            WHERE t.op = 'take_back' AND t.phone = a.phone
                              AND CASE WHEN a.id IS NULL THEN t.id IS NULL AND t.job = a.job AND t.at = a.at ELSE t.id = a.id END))::int AS ledger,
       (SELECT coalesce(sum(held), 0) FROM ${s}.budget_holds WHERE holder <> $2)::int AS others,
       (SELECT coalesce(sum(held), 0) FROM ${s}.budget_holds WHERE holder = $2)::int AS mine`,
    [new Date(since).toISOString(), holder],
  );
  const row = rows[0];
  return { ledger: row?.ledger ?? 0, others: row?.others ?? 0, mine: row?.mine ?? 0 };
}
