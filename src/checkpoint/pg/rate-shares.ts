/**
 * The registry of senders in the database (`RateShareRegistry`, `rate-share/`): table `rate_shares`, one
 * row per (number, sending process) with the share of the number's rate it claims and when the claim
 * lapses (the database's clock). A claim is one transaction under the table's EXCLUSIVE lock, so claims
 * of every process follow one another: it removes the number's lapsed rows, makes those of this host's
 * dead processes lapse soon, and grants by `grantAmong`.
 */
import { hostname } from 'node:os';
import { grantAmong, processGone, RATE_SHARE_EXPIRY_MS, RATE_SHARE_LEAVE_MS, type RateShareRegistry } from '../../rate-share/index.js';
import { isProcessAlive } from '../process-alive.js';
import type { Db } from './db.js';
import { writeTx } from './write.js';

const WHAT = 'the senders of a number';

export function pgRateShares(db: Db): RateShareRegistry {
  const s = db.s;
  return {
    claimRate: (claim) =>
      writeTx(db, WHAT, async (c) => {
        await c.query(`LOCK TABLE ${s}.rate_shares IN EXCLUSIVE MODE`);
        await c.query(`DELETE FROM ${s}.rate_shares WHERE channel = $1 AND expires_at <= now()`, [claim.channel]);
        const { rows } = await c.query<{ sender: string; claim: number; per_second: number; host: string | null; pid: number | null }>(
          `SELECT sender, claim, per_second, host, pid FROM ${s}.rate_shares WHERE channel = $1`,
          [claim.channel],
        );
        const dead = rows.filter((r) => r.sender !== claim.sender && processGone(r, hostname(), isProcessAlive)).map((r) => r.sender);
        if (dead.length > 0) {
          await c.query(`UPDATE ${s}.rate_shares SET expires_at = least(expires_at, now() + $3 * interval '1 millisecond') WHERE channel = $1 AND sender = ANY($2)`, [claim.channel, dead, RATE_SHARE_LEAVE_MS]);
        }
        const share = grantAmong(claim, rows.map((r) => ({ sender: r.sender, claim: r.claim, perSecond: r.per_second })));
        await c.query(
          `INSERT INTO ${s}.rate_shares (channel, sender, claim, per_second, expires_at, host, pid)
           VALUES ($1, $2, $3, $4, now() + $5 * interval '1 millisecond', $6, $7)
           ON CONFLICT (channel, sender) DO UPDATE SET claim = EXCLUDED.claim, per_second = EXCLUDED.per_second, expires_at = EXCLUDED.expires_at`,
          [claim.channel, claim.sender, share.granted, claim.perSecond, RATE_SHARE_EXPIRY_MS, claim.host ?? hostname(), claim.pid ?? process.pid],
        );
        return share;
      }),
    // The database's clock decides the lapse, not the caller's `now`.
    leaveRate: async (channel, sender) => {
      await writeTx(db, WHAT, (c) =>
        c.query(`UPDATE ${s}.rate_shares SET expires_at = least(expires_at, now() + $3 * interval '1 millisecond') WHERE channel = $1 AND sender = $2`, [channel, sender, RATE_SHARE_LEAVE_MS]),
      );
    },
  };
}
