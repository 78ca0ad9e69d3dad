/**
 * `StateStore.jobs` for every backend: a job's entry from its key and first header, and a company's
 * part of the list (its own jobs and those naming no company, each by its name). Pure.
 */
import { headerCompany } from './job-key.js';
import type { StoredJob } from './store.js';
import type { HeaderEvent } from './types.js';

/** A stored job's entry: its key, and what its first header says (a job with no header yet is named by its key). */
export function storedJob(key: string, header: HeaderEvent | undefined): StoredJob {
  const company = headerCompany(header);
  const name = header?.job ?? nameOfKey(key, company);
  return {
    key,
    name,
    ...(company !== undefined && { company }),
    ...(header?.job_file !== undefined && { jobFile: header.job_file }),
    ...(header?.host !== undefined && { host: header.host }),
    ...(header !== undefined && { startedAt: header.at }),
  };
}

/** `promo@3` → `promo` for company 3; any other key as it is. */
function nameOfKey(key: string, company: number | undefined): string {
  const suffix = company !== undefined ? `@${company}` : undefined;
  return suffix !== undefined && key.endsWith(suffix) ? key.slice(0, -suffix.length) : key;
}

/**
 * The jobs as a view of the store lists them, ordered by key: all of them (`company` undefined), or a
 * company's part: its own jobs and those naming no company, each by its name (a job of no company whose
 * name the company's own job has is that job's to the company, and left out).
 */
export function jobsOfView(all: readonly StoredJob[], company: number | undefined): StoredJob[] {
  const sorted = [...all].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  if (company === undefined) return sorted;
  const own = sorted.filter((j) => j.company === company).map((j) => ({ ...j, key: j.name }));
  const names = new Set(own.map((j) => j.name));
  const shared = sorted.filter((j) => j.company === undefined && !names.has(j.name));
  return [...own, ...shared].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
