/**
 * A job's lease in the `jobs` row: one owner (host, pid, command, start), a fencing token that grows
 * at each take-over, and an expiry the owner keeps renewing. The database's clock decides expiry
 * (`now()`), never a host's. A job is taken when no live lease holds it (none yet, released, or
 * expired); a live one refuses, naming its holder and when its lease ends. Every statement is its own
 * transaction or a short one: nothing here keeps session state (PgBouncer's transaction pooling).
 */
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { JobOwner, JobRunner } from '../store.js';
import type { Db } from './db.js';
import { isProcessAlive } from '../process-alive.js';
import { unavailable } from './errors.js';

export interface LeaseOptions {
  /** How long a lease lasts without renewal (default 30 s). */
  leaseSeconds?: number;
  /** How often the owner renews it (default a third of `leaseSeconds`). */
  renewEverySeconds?: number;
  /** This process's clock in ms, only ever compared with itself (tests inject one; default the monotonic clock). */
  clock?: () => number;
}

export const DEFAULT_LEASE_SECONDS = 30;

/** Another live owner holds the job: nothing was done (exit 2). */
export class JobLeasedError extends Error {
  readonly userError = true;
  constructor(
    readonly job: string,
    readonly holder: JobRunner,
    readonly endsAt: string,
  ) {
    super(`job "${job}" is already running (${describeOwner(holder)}, its lease ending at ${endsAt} unless renewed); wait for it or stop it (a run that is gone is taken over once its lease ends)`);
    this.name = 'JobLeasedError';
  }
}

export function describeOwner(owner: Pick<JobRunner, 'pid' | 'host' | 'since'>): string {
  return `pid ${owner.pid} on host ${owner.host || 'unknown'}${owner.since ? `, started ${owner.since}` : ''}`;
}

interface OwnerRow {
  owner_host: string | null;
  owner_pid: number | null;
  owner_command: string | null;
  owner_started_at: string | null;
  owner_job_file: string | null;
}

const OWNER_COLUMNS = 'owner_host, owner_pid, owner_command, owner_started_at, owner_job_file';

function runnerOf(row: OwnerRow): JobRunner | undefined {
  if (row.owner_pid === null) return undefined;
  return {
    pid: row.owner_pid,
    host: row.owner_host ?? '',
    since: row.owner_started_at ?? '',
    command: row.owner_command ?? '',
    ...(row.owner_job_file !== null && { jobFile: row.owner_job_file }),
  };
}

/** Whether the owner runs on this host and its process is gone: its lease holds nothing any more. */
function goneHere(owner: Pick<JobRunner, 'host' | 'pid'>): boolean {
  return owner.host === hostname() && !isProcessAlive(owner.pid);
}

/**
 * The owner of a live lease on the job, or undefined (none, released, or expired). An owner of this host
 * whose process is gone is named with `gone` (its lease still runs on the database's clock, but a run on
 * this host takes the job over at once).
 */
export async function leaseHolder(db: Db, job: string): Promise<JobRunner | undefined> {
  const { rows } = await db.query<OwnerRow & { ends: Date }>(`SELECT ${OWNER_COLUMNS}, lease_expires_at AS ends FROM ${db.s}.jobs WHERE job = $1 AND lease_expires_at > now()`, [job]);
  const row = rows[0];
  const runner = row && runnerOf(row);
  if (row === undefined || runner === undefined) return undefined;
  return goneHere(runner) ? { ...runner, gone: { until: row.ends.toISOString() } } : runner;
}

/** A lease this process holds: renewed in the background (never keeping the process alive), checked by every write. */
export class JobLease {
  /** When (this process's clock) the lease was last known to be ours and renewed. */
  private renewedAt: number;
  private timer: NodeJS.Timeout | undefined;
  private renewing: Promise<boolean> | undefined;
  /** Set once a renewal found another token: the job is someone else's now. */
  lost = false;

  constructor(
    private readonly db: Db,
    readonly job: string,
    readonly token: string,
    readonly seconds: number,
    private readonly renewEverySeconds: number,
    readonly clock: () => number,
    takenAt: number,
    /** The owner whose lease had lapsed when this one took the job, if any. */
    readonly tookOverFrom: { host: string; pid: number } | undefined,
  ) {
    this.renewedAt = takenAt;
  }

  /** Starts renewing every `renewEverySeconds`; the timer does not keep the process alive. */
  start(): void {
    this.timer = setInterval(() => void this.renew().catch(() => false), this.renewEverySeconds * 1000);
    this.timer.unref();
  }

  /** Whether this process's clock says the lease may have lapsed (a pause longer than the lease): the next write renews it first. */
  overdue(): boolean {
    return this.clock() - this.renewedAt > this.seconds * 1000;
  }

  /** Notes a renewal that succeeded, begun at `at` (this process's clock). */
  renewed(at: number): void {
    this.renewedAt = Math.max(this.renewedAt, at);
  }

  /** Extends the lease if it is still ours; false (and `lost`) when another owner took the job. Throws what the database said. */
  renew(): Promise<boolean> {
    if (this.lost) return Promise.resolve(false);
    this.renewing ??= (async () => {
      const at = this.clock();
      try {
        const { rowCount } = await this.db.query(`UPDATE ${this.db.s}.jobs SET lease_expires_at = now() + make_interval(secs => $3) WHERE job = $1 AND lease_token = $2`, [this.job, this.token, this.seconds]);
        if (rowCount === 0) this.lost = true;
        else this.renewed(at);
        return !this.lost;
      } finally {
        this.renewing = undefined;
      }
    })();
    return this.renewing;
  }

  /** Stops renewing and gives the job up (owner cleared, no expiry; the token stays). Best effort: an unreachable database lets the lease expire by itself. */
  async release(): Promise<void> {
    this.stop();
    await this.renewing?.catch(() => false);
    if (this.lost) return;
    await this.db
      .query(`UPDATE ${this.db.s}.jobs SET owner_host = NULL, owner_pid = NULL, owner_command = NULL, owner_started_at = NULL, owner_job_file = NULL, lease_expires_at = NULL WHERE job = $1 AND lease_token = $2`, [
        this.job,
        this.token,
      ])
      .catch(() => undefined);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}

/**
 * Takes the job's lease for `owner`: refused with JobLeasedError while another live lease holds it;
 * an expired one is taken over (the token grows, and the lapsed owner is named). The row is read
 * FOR UPDATE, so of two processes taking it together one waits and then finds it held.
 */
export async function takeLease(db: Db, job: string, owner: JobOwner, options: LeaseOptions = {}): Promise<JobLease> {
  const seconds = options.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
  const clock = options.clock ?? (() => performance.now());
  const host = owner.host ?? hostname();
  const at = clock();
  let taken: { token: string; tookOverFrom: { host: string; pid: number } | undefined };
  try {
    taken = await db.tx(async (c) => {
      await c.query(`INSERT INTO ${db.s}.jobs (job) VALUES ($1) ON CONFLICT (job) DO NOTHING`, [job]);
      const { rows } = await c.query<OwnerRow & { live: boolean; ends: Date | null; token: string }>(
        `SELECT ${OWNER_COLUMNS}, lease_expires_at AS ends, coalesce(lease_expires_at > now(), false) AS live, lease_token::text AS token FROM ${db.s}.jobs WHERE job = $1 FOR UPDATE`,
        [job],
      );
      const row = rows[0];
      const holder = row && runnerOf(row);
      // This very take, tried again after its connection was lost once it had committed: the lease is ours already.
      if (row?.live && holder && holder.host === host && holder.pid === owner.pid && holder.since === owner.startedAt && holder.command === owner.command) return { token: row.token, tookOverFrom: undefined };
      // A live lease of this host whose process is gone (killed) is taken over at once; another host's waits for its lapse.
      if (row?.live && holder && !goneHere(holder)) throw new JobLeasedError(job, holder, row.ends?.toISOString() ?? 'an unknown time');
      const { rows: updated } = await c.query<{ token: string }>(
        `UPDATE ${db.s}.jobs SET lease_token = lease_token + 1, owner_host = $2, owner_pid = $3, owner_command = $4, owner_started_at = $5, owner_job_file = $7,
                lease_expires_at = now() + make_interval(secs => $6) WHERE job = $1 RETURNING lease_token::text AS token`,
        [job, host, owner.pid, owner.command, owner.startedAt, seconds, owner.jobFile ?? null],
      );
      // An owner still named (never released) whose lease expired: it is gone, and this run says so.
      return { token: updated[0]?.token ?? '0', tookOverFrom: holder && { host: holder.host, pid: holder.pid } };
    });
  } catch (err) {
    if (err instanceof JobLeasedError) throw err;
    throw unavailable(err, db.url);
  }
  const lease = new JobLease(db, job, taken.token, seconds, options.renewEverySeconds ?? seconds / 3, clock, at, taken.tookOverFrom);
  lease.start();
  return lease;
}
