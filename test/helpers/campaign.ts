import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface Campaign {
  dir: string;
  jobFile: string;
  stateDir: string;
  phones: string[];
  cleanup(): Promise<void>;
}

/** A valid Brazilian mobile for row i. */
export function phoneOf(i: number): string {
  return `+55119${String(70000000 + i).padStart(8, '0')}`;
}

/**
 * A temp folder with a contacts.csv of `rows` good rows (national form, default country BR) plus
 * `bad` unusable ones, and a job file over it; the job's fields can be overridden. `firstRow` shifts
 * the phones (phoneOf(firstRow) first), so two campaigns can be of other people.
 */
export async function campaign(
  options: { rows: number; bad?: number; emptyCoupon?: number; job?: Record<string, unknown>; name?: string; firstRow?: number } = { rows: 10 },
): Promise<Campaign> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'outreach-cli-'));
  const lines = ['Phone;First name;coupon'];
  const phones: string[] = [];
  for (let i = options.firstRow ?? 0; i < (options.firstRow ?? 0) + options.rows; i++) {
    const e164 = phoneOf(i);
    phones.push(e164);
    // National form with trunk prefix: (011) 97xxx-xxxx
    lines.push(`(011) ${e164.slice(5, 10)}-${e164.slice(10)};Ana ${i};BF${i}`);
  }
  for (let i = 0; i < (options.bad ?? 0); i++) lines.push(`12${i};Bad ${i};X`);
  // Valid phones whose coupon cell is empty: the planner rejects them (missing_variable:coupon).
  for (let i = 0; i < (options.emptyCoupon ?? 0); i++) lines.push(`+55 11 95555-${String(1000 + i)};NoCoupon ${i};`);
  await writeFile(path.join(dir, 'contacts.csv'), `${lines.join('\n')}\n`);
  const job = {
    name: options.name ?? 'cli-test',
    contacts: 'contacts.csv',
    company_id: 1,
    channel_id: 10,
    default_country: 'BR',
    columns: { phone: 'Phone', name: 'First name' },
    message: { template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}', '2': '{{coupon}}' } } },
    rate: { per_second: 200, concurrency: 8 },
    retry: { attempts: 3, backoff_ms: 10 },
    ...options.job,
  };
  const jobFile = path.join(dir, 'job.json');
  await writeFile(jobFile, JSON.stringify(job, null, 2));
  return {
    dir,
    jobFile,
    stateDir: path.join(dir, 'state'),
    phones,
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Parses the report CSV (no quoted commas in the cells these tests produce). */
export function parseCsv(text: string): Array<Record<string, string>> {
  const [header, ...rows] = text.trimEnd().split('\n');
  const cols = header!.split(',');
  return rows.map((r) => {
    const cells = r.split(',');
    return Object.fromEntries(cols.map((c, i) => [c, cells[i] ?? '']));
  });
}
