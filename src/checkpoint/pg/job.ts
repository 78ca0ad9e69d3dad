/** A job in the database: its lease (owner, fencing token, expiry) and its journal. Filled by the job-part work. */
import type { ContactEvent } from '../types.js';
import type { JobFiles, JobOwner, JobRunner, JobStore, JobView } from '../store.js';
import type { Db } from './db.js';

export interface LeaseOptions {
  /** How long a lease lasts without renewal (default 30 s); the owner renews it every third of that. */
  leaseSeconds?: number;
}

const notYet = (): never => {
  throw new Error('the PostgreSQL job store is not written yet');
};

export function openPgJob(_db: Db, _job: string, _owner: JobOwner, _files: JobFiles, _options: LeaseOptions): Promise<JobStore> {
  return notYet();
}
export function runningBy(_db: Db, _job: string): Promise<JobRunner | undefined> {
  return notYet();
}
export function readPgJob(_db: Db, _job: string): Promise<JobView | undefined> {
  return notYet();
}
export function contactEvents(_db: Db, _job: string, _phone: string): Promise<ContactEvent[]> {
  return notYet();
}
export function knownPhones(_db: Db): Promise<Map<string, string>> {
  return notYet();
}
