/**
 * The registry of senders of a file store (`RateShareRegistry`, `rate-share/`): one small file per number,
 * `<stateDir>/senders/<channel>.json`, holding each live sender's claim and when it lapses (the callers'
 * clock: the processes of one state folder run on one machine), rewritten whole (by rename) under the
 * short lock `<channel>.lock`:
 *
 *   {"v":1,"senders":{"4f0c…":{"claim":10,"per_second":20,"expires":"2026-03-01T12:00:10.000Z","pid":4121,"host":"runner-a"}}}
 *
 * A claim reads the file, leaves out the lapsed rows, makes those of this host's dead processes lapse
 * soon, grants by `grantAmong` and writes the file back.
 */
import { hostname } from 'node:os';
import path from 'node:path';
import { grantAmong, leftAt, processGone, RATE_SHARE_EXPIRY_MS, type RateShareRegistry } from '../../rate-share/index.js';
import { isProcessAlive } from '../process-alive.js';
import { withShortLock } from './lock.js';
import { readEntries, writeEntries } from './entries-file.js';

interface Row {
  claim: number;
  perSecond: number;
  expires: number;
  pid?: number;
  host?: string;
}

export function fileRateShares(stateDir: string): RateShareRegistry {
  const files = (channel: number) => {
    const base = path.join(stateDir, 'senders', String(channel));
    return { rows: `${base}.json`, lock: `${base}.lock`, what: `the senders of number ${channel}` };
  };
  return {
    claimRate(claim) {
      const f = files(claim.channel);
      return withShortLock(f.lock, f.what, async () => {
        const rows = gone(live(await readRows(f.rows), claim.now), claim.now);
        const share = grantAmong(claim, [...rows].map(([sender, r]) => ({ sender, claim: r.claim, perSecond: r.perSecond })));
        rows.set(claim.sender, { claim: share.granted, perSecond: claim.perSecond, expires: claim.now + RATE_SHARE_EXPIRY_MS, pid: claim.pid ?? process.pid, host: claim.host ?? hostname() });
        await writeRows(f.rows, rows, f.what);
        return share;
      });
    },
    leaveRate(channel, sender, now) {
      const f = files(channel);
      return withShortLock(f.lock, f.what, async () => {
        const rows = live(await readRows(f.rows), now);
        const mine = rows.get(sender);
        if (mine === undefined) return;
        rows.set(sender, { ...mine, expires: leftAt(mine.expires, now) });
        await writeRows(f.rows, rows, f.what);
      });
    },
  };
}

function live(rows: Map<string, Row>, now: number): Map<string, Row> {
  return new Map([...rows].filter(([, r]) => r.expires > now));
}

/** The rows of senders of this host whose process is gone lapse as a leaving sender's do (`processGone`). */
function gone(rows: Map<string, Row>, now: number): Map<string, Row> {
  for (const [id, r] of rows) {
    if (processGone(r, hostname(), isProcessAlive)) rows.set(id, { ...r, expires: leftAt(r.expires, now) });
  }
  return rows;
}

async function readRows(file: string): Promise<Map<string, Row>> {
  const rows = new Map<string, Row>();
  for (const [id, { claim, per_second: perSecond, expires, pid, host }] of await readEntries(file, 'senders')) {
    const at = typeof expires === 'string' ? Date.parse(expires) : NaN;
    if (typeof claim !== 'number' || typeof perSecond !== 'number' || Number.isNaN(at)) continue;
    rows.set(id, { claim, perSecond, expires: at, ...(typeof pid === 'number' && { pid }), ...(typeof host === 'string' && { host }) });
  }
  return rows;
}

async function writeRows(file: string, rows: Map<string, Row>, what: string): Promise<void> {
  const out: Record<string, unknown> = {};
  for (const [id, r] of rows) {
    out[id] = { claim: r.claim, per_second: r.perSecond, expires: new Date(r.expires).toISOString(), ...(r.pid !== undefined && { pid: r.pid }), ...(r.host !== undefined && { host: r.host }) };
  }
  await writeEntries(file, 'senders', out, what);
}
