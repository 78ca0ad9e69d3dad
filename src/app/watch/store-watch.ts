import type { StateStore, StoredJob } from '../../checkpoint/index.js';
import type { MessagingRoom } from '../account/index.js';
import { stopJob, type StopJobOptions, type StopOutcome } from '../store/index.js';
import { jobFigures, type JobFigures } from './job-figures.js';
import { jobRows, type JobRows } from './job-rows.js';
import { jobSource } from './job-source.js';
import { rateMeter } from './rate-meter.js';

/** A company's messaging limit as the jobs of the store see it: its room against the tightest limit a job of it sets. */
export interface CompanyRoom {
  /** Undefined: jobs that name no company (an earlier version's). */
  company?: number;
  room: MessagingRoom;
  /** The job whose limit it is (absent when no job of the company sets one, or none can be read here). */
  job?: string;
}

export interface StoreWatchOptions {
  clock?: () => number;
  /** A job's figures this recent are shown again without reading the store (default 1,500 ms). */
  freshMs?: number;
  /** The same for a job no run holds, as long as none does (default 15 s: only `track` or `reconcile` move them). */
  idleMs?: number;
}

/** What the console shows of a store, read on demand and kept for a moment (many pages, one read). */
export interface StoreWatch {
  /** Every job of the store with its figures, by key. */
  jobs(): Promise<JobFigures[]>;
  /** One job's figures; undefined for a key the store does not hold. */
  job(key: string): Promise<JobFigures | undefined>;
  /** The job's report rows (`report`'s columns and order); undefined for a key the store does not hold. */
  rows(key: string): Promise<(JobRows & { job: StoredJob }) | undefined>;
  /** Asks the run holding the job to stop, as `outreach stop` does; undefined for a key the store does not hold. */
  stop(key: string, options: Omit<StopJobOptions, 'store'>): Promise<StopOutcome | undefined>;
}

/** Watches the store seen whole (every company's jobs). */
export function storeWatch(store: StateStore, options: StoreWatchOptions = {}): StoreWatch {
  const clock = options.clock ?? Date.now;
  const freshMs = options.freshMs ?? 1_500;
  const idleMs = options.idleMs ?? 15_000;
  const meter = rateMeter();
  const kept = new Map<string, { at: number; figures: Promise<JobFigures> }>();
  let listed: { at: number; jobs: Promise<StoredJob[]> } | undefined;

  const storedJobs = (): Promise<StoredJob[]> => {
    const now = clock();
    if (listed === undefined || now - listed.at >= freshMs) {
      const jobs = store.jobs();
      listed = { at: now, jobs };
      jobs.catch(() => (listed = undefined));
    }
    return listed.jobs;
  };

  const stored = async (key: string): Promise<StoredJob | undefined> => (await storedJobs()).find((j) => j.key === key);

  const figuresOf = async (job: StoredJob): Promise<JobFigures> => {
    const now = clock();
    const had = kept.get(job.key);
    if (had !== undefined) {
      const age = now - had.at;
      if (age < freshMs) return had.figures;
      const before = await had.figures.catch(() => undefined);
      // A job nobody runs moves only by track or reconcile: kept longer, as long as no run took it since.
      if (before !== undefined && before.phase.kind !== 'running' && age < idleMs && (await store.runningBy(job.key)) === undefined) return had.figures;
    }
    const figures = jobFigures(store, job, { now, meter });
    kept.set(job.key, { at: now, figures });
    figures.catch(() => kept.delete(job.key));
    return figures;
  };

  return {
    async jobs() {
      return Promise.all((await storedJobs()).map(figuresOf));
    },
    async job(key) {
      const job = await stored(key);
      return job && figuresOf(job);
    },
    async rows(key) {
      const job = await stored(key);
      if (job === undefined) return undefined;
      const rows = await jobRows(store, job, await jobSource(job, await store.runningBy(job.key)), clock());
      return rows && { ...rows, job };
    },
    async stop(key, stopOptions) {
      const job = await stored(key);
      if (job === undefined) return undefined;
      const outcome = await stopJob(job.key, { ...stopOptions, store });
      kept.delete(job.key);
      return outcome;
    },
  };
}

/** Each company's messaging room, from its jobs' figures: against the tightest limit a job of it sets (the used count is the same for all). Pure. */
export function companyRooms(jobs: readonly JobFigures[]): CompanyRoom[] {
  const byCompany = new Map<number | undefined, CompanyRoom>();
  for (const j of jobs) {
    const room = j.status.messaging;
    const had = byCompany.get(j.company);
    const tighter = room.limit !== undefined && (had?.room.limit === undefined || room.limit < had.room.limit);
    if (had === undefined || tighter) byCompany.set(j.company, { ...(j.company !== undefined && { company: j.company }), room, ...(room.limit !== undefined && { job: j.name }) });
  }
  return [...byCompany.values()].sort((a, b) => (a.company ?? -1) - (b.company ?? -1));
}
