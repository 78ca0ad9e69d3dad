import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliError } from '../../src/cli/exit.js';
import { openStore, storeWhere, suppressionStore } from '../../src/cli/store-root.js';

describe('the store is found and opened in one place', () => {
  it('takes --state-dir first, then OUTREACH_STATE_DIR, then .outreach beside the job file, then in the working directory', () => {
    const env = { OUTREACH_STATE_DIR: 'from-env' };
    expect(storeWhere({ stateDir: 'from-flag' }, env, 'jobs/a.json')).toEqual({ kind: 'folder', path: path.resolve('from-flag') });
    expect(storeWhere({}, env, 'jobs/a.json')).toEqual({ kind: 'folder', path: path.resolve('from-env') });
    expect(storeWhere({}, {}, 'jobs/a.json')).toEqual({ kind: 'folder', path: path.resolve('jobs', '.outreach') });
    expect(storeWhere({}, { OUTREACH_STATE_DIR: '' })).toEqual({ kind: 'folder', path: path.resolve('.outreach') });
  });

  it('opens a folder store at the folder it names', () => {
    const dir = path.resolve('some-state');
    expect(openStore({ kind: 'folder', path: dir }).location).toBe(dir);
  });

  it("refuses to guess whose suppression list to change when neither a folder nor a job says it", () => {
    expect(() => suppressionStore({}, {})).toThrow(CliError);
    expect(suppressionStore({ job: 'jobs/a.json' }, {}).location).toBe(path.resolve('jobs', '.outreach'));
  });
});
