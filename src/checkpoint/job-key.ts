/**
 * A job is its company and its name: where a store keeps a company's job of a given name. A name is
 * kept as it is (`black-friday`), the layout every store written before companies were kept has; when
 * that name is already another company's job, this company's is kept as `<name>@<company>` (`@` is
 * never in a job's name, so the two cannot meet). The owner of a stored job is the company its pinned
 * content names (`company_id` of its header); a job with no header yet (only planned) is nobody's.
 */
import type { HeaderEvent } from './types.js';

/** What a backend tells of a stored job, for the resolution. */
export interface StoredJobs {
  /** The company the stored job's header names; undefined when it has none (never run) or names none. */
  companyOf(key: string): Promise<number | undefined>;
  /** Whether a job is kept under `key` (its journal exists). */
  exists(key: string): Promise<boolean>;
}

export interface JobKeys {
  /** Where the company's job `name` is kept (resolved once, then remembered). */
  key(name: string): Promise<string>;
  /** The key resolved earlier for `name`, else the name itself (a sync caller that ran no async call about the job yet). */
  known(name: string): string;
}

/** `<name>@<company>`: the key of a company's job whose name another company's job already has. */
export function companyKey(name: string, company: number): string {
  return `${name}@${company}`;
}

/** The company a header's pinned content names, if any. */
export function headerCompany(header: Pick<HeaderEvent, 'content'> | undefined): number | undefined {
  const id = header?.content['company_id'];
  return typeof id === 'number' && Number.isInteger(id) ? id : undefined;
}

/** The keys of `company`'s jobs (undefined: the store seen whole, whose names are the keys themselves). */
export function jobKeys(company: number | undefined, stored: StoredJobs): JobKeys {
  const resolved = new Map<string, string>();
  return {
    async key(name) {
      if (company === undefined) return name;
      const had = resolved.get(name);
      if (had !== undefined) return had;
      const own = companyKey(name, company);
      let key = name;
      if (await stored.exists(own)) key = own;
      else {
        const owner = await stored.companyOf(name);
        if (owner !== undefined && owner !== company) key = own;
      }
      resolved.set(name, key);
      return key;
    },
    known: (name) => resolved.get(name) ?? name,
  };
}
