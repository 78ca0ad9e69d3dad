import { describe, expect, it } from 'vitest';
import { companyKey, headerCompany, jobKeys } from '../../src/checkpoint/job-key.js';

/** Stored jobs: key → the company its header names (null: no header yet). */
function stored(jobs: Record<string, number | null>) {
  return {
    companyOf: async (key: string) => jobs[key] ?? undefined,
    exists: async (key: string) => key in jobs,
  };
}

describe('where a company keeps its job of a given name', () => {
  it('keeps a name as it is when no other company has a job of that name, or its own job has it', async () => {
    expect(await jobKeys(1, stored({})).key('bf')).toBe('bf');
    expect(await jobKeys(1, stored({ bf: 1 })).key('bf')).toBe('bf');
    expect(await jobKeys(1, stored({ bf: null })).key('bf')).toBe('bf');
  });

  it("keeps another company's job of a taken name apart, as name@company, and finds it there again", async () => {
    expect(await jobKeys(2, stored({ bf: 1 })).key('bf')).toBe('bf@2');
    expect(await jobKeys(2, stored({ 'bf@2': 2 })).key('bf')).toBe('bf@2');
    expect(companyKey('bf', 2)).toBe('bf@2');
  });

  it('remembers a key once resolved, for the sync callers, and the store seen whole names jobs by their stored name', async () => {
    const keys = jobKeys(2, stored({ bf: 1 }));
    expect(keys.known('bf')).toBe('bf');
    await keys.key('bf');
    expect(keys.known('bf')).toBe('bf@2');
    expect(await jobKeys(undefined, stored({ bf: 1 })).key('bf')).toBe('bf');
  });

  it("reads a header's company only when it is a whole number", () => {
    expect(headerCompany({ content: { company_id: 3 } })).toBe(3);
    expect(headerCompany({ content: { company_id: '3' } })).toBeUndefined();
    expect(headerCompany(undefined)).toBeUndefined();
  });
});
