/**
 * The registry of senders in the database: table `rate_shares`, one row per (number, sending process)
 * with the share of the number's rate it claims and when the claim lapses (the database's clock). A
 * claim is one transaction under the table's EXCLUSIVE lock, so claims of every process follow one
 * another: it removes the number's lapsed rows, makes those of this host's dead processes lapse soon, sums
 * the others' claims and grants by `grantedShare`.
 */
import { hostname } from 'node:os';
import { isProcessAlive } from '../process-alive.js';
import { grantedShare, RATE_SHARE_EXPIRY_MS, RATE_SHARE_LEAVE_MS, type RateClaim, type RateShare } from '../rate-share.js';
import type { Db } from './db.js';
import { writeTx } from './write.js';

const WHAT = 'the senders of a number';

export async function pgClaimRate(db: Db, claim: RateClaim): Promise<RateShare> {
  const s = db.s;
  return writeTx(db, WHAT, async (c) => {
    await c.query(`LOCK TABLE ${s}.rate_shares IN EXCLUSIVE MODE`);
    await c.query(`DELETE FROM ${s}.rate_shares WHERE channel = $1 AND expires_at <= now()`, [claim.channel]);
    const { rows } = await c.query<{ sender: string; claim: number; per_second: number; host: string | null; pid: number | null }>(
      `SELECT sender, claim, per_second, host, pid FROM ${s}.rate_shares WHERE channel = $1`,
      [claim.channel],
    );
    // A sender of this host whose process is gone (killed, crashed) lapses as a leaving one does, not a whole expiry later.
    const dead = rows.filter((r) => r.sender !== claim.sender && r.pid !== null && r.host === hostname() && !isProcessAlive(r.pid)).map((r) => r.sender);
    if (dead.length > 0) {
      await c.query(`UPDATE ${s}.rate_shares SET expires_at = least(expires_at, now() + $3 * interval '1 millisecond') WHERE channel = $1 AND sender = ANY($2)`, [claim.channel, dead, RATE_SHARE_LEAVE_MS]);
    }
    let held = 0;
    let others = 0;
    let lowest = claim.perSecond;
    let senders = 1;
    for (const r of rows) {
      if (r.sender === claim.sender) {
        held = r.claim;
        continue;
      }
      senders += 1;
      others += r.claim;
      lowest = Math.min(lowest, r.per_second);
    }
    const granted = grantedShare(held, claim.want, lowest, others);
    await c.query(
      `INSERT INTO ${s}.rate_shares (channel, sender, claim, per_second, expires_at, host, pid)
       VALUES ($1, $2, $3, $4, now() + $5 * interval '1 millisecond', $6, $7)
       ON CONFLICT (channel, sender) DO UPDATE SET claim = EXCLUDED.claim, per_second = EXCLUDED.per_second, expires_at = EXCLUDED.expires_at`,
      [claim.channel, claim.sender, granted, claim.perSecond, RATE_SHARE_EXPIRY_MS, claim.host ?? hostname(), claim.pid ?? process.pid],
    );
    return { granted, senders, perSecond: lowest };
  });
}

export async function pgLeaveRate(db: Db, channel: number, sender: string): Promise<void> {
  await writeTx(db, WHAT, (c) =>
    c.query(`UPDATE ${db.s}.rate_shares SET expires_at = least(expires_at, now() + $3 * interval '1 millisecond') WHERE channel = $1 AND sender = $2`, [channel, sender, RATE_SHARE_LEAVE_MS]),
  );
}
