import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { jobStatePaths, openJobJournal, type JobJournal } from '../../src/checkpoint/file/index.js';
import type { Contact } from '../../src/contacts/index.js';
import { parseJob, type Job, type JobInput } from '../../src/job/index.js';

/** A job parsed through the real schema (so every default is the one users get). */
export function testJob(overrides: Partial<JobInput> = {}): Job {
  const raw = {
    name: 'test-job',
    contacts: '/dev/null',
    company_id: 1,
    channel_id: 10,
    message: { template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}', '2': '{{coupon}}' } } },
    retry: { attempts: 3, backoff_ms: 1 },
    rate: { per_second: 1000, concurrency: 8 },
    ...overrides,
  };
  const parsed = parseJob(raw);
  if (!parsed.ok) throw new Error(`test job invalid: ${parsed.problems.join('; ')}`);
  return parsed.job;
}

/** `n` contacts with valid Brazilian mobile numbers, all columns the test jobs use. */
export function testContacts(n: number, extra: Partial<Contact> = {}): Contact[] {
  return Array.from({ length: n }, (_, i) => {
    const phone = `+55119${String(80000000 + i).padStart(8, '0')}`;
    const name = `Ana${i}`;
    return {
      file: 'contacts.csv',
      line: i + 2,
      phone,
      name,
      vars: { phone, name, coupon: `BF${i}` },
      ...extra,
    };
  });
}

export async function* stream<T>(items: T[]): AsyncGenerator<T> {
  for (const item of items) yield item;
}

export interface TempState {
  dir: string;
  checkpoint: JobJournal;
  reopen(): Promise<JobJournal>;
  cleanup(): Promise<void>;
}

/** A fresh state folder with the job's checkpoint open. */
export async function tempState(jobName = 'test-job'): Promise<TempState> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'outreach-run-'));
  const state: TempState = {
    dir,
    checkpoint: await openJobJournal(jobStatePaths(dir, jobName).checkpoint),
    async reopen() {
      await state.checkpoint.close();
      state.checkpoint = await openJobJournal(jobStatePaths(dir, jobName).checkpoint);
      return state.checkpoint;
    },
    async cleanup() {
      await state.checkpoint.close().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
  return state;
}
