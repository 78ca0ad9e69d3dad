import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliError } from '../../src/cli/exit.js';
import type { StateStore } from '../../src/checkpoint/index.js';
import { openStore, storeWhere, storeFor, usingStore } from '../../src/cli/store-root.js';
import { defaultStateDir } from '../../src/cli/context.js';

describe('the store is found and opened in one place', () => {
  const home = { HOME: '/home/ana' };

  it('takes --state-dir first, then OUTREACH_STATE_DIR, then the account store of this user, never a folder beside the job file', () => {
    const env = { ...home, OUTREACH_STATE_DIR: 'from-env' };
    expect(storeWhere({ stateDir: 'from-flag' }, env, 'jobs/a.json')).toEqual({ kind: 'folder', path: path.resolve('from-flag'), filesDir: path.resolve('from-flag') });
    expect(storeWhere({}, env, 'jobs/a.json')).toEqual({ kind: 'folder', path: path.resolve('from-env'), filesDir: path.resolve('from-env') });
    expect(storeWhere({}, home, 'jobs/a.json')).toEqual({
      kind: 'folder',
      path: '/home/ana/.local/state/outreach',
      filesDir: path.resolve('jobs'),
      legacy: path.resolve('jobs', '.outreach'),
    });
    expect(storeWhere({}, { ...home, OUTREACH_STATE_DIR: '' })).toEqual({ kind: 'folder', path: '/home/ana/.local/state/outreach', filesDir: '/home/ana/.local/state/outreach' });
  });

  it("finds the account store in systemd's STATE_DIRECTORY, then XDG_STATE_HOME, then ~/.local/state", () => {
    expect(defaultStateDir({ ...home, STATE_DIRECTORY: '/var/lib/outreach:/var/lib/other', XDG_STATE_HOME: '/x' })).toBe('/var/lib/outreach');
    expect(defaultStateDir({ ...home, XDG_STATE_HOME: '/x/state' })).toBe('/x/state/outreach');
    expect(defaultStateDir({ ...home, XDG_STATE_HOME: 'relative/is/ignored' })).toBe('/home/ana/.local/state/outreach');
    expect(defaultStateDir(home)).toBe('/home/ana/.local/state/outreach');
  });

  it('opens a folder store at the folder it names, with the files for people where it says', async () => {
    const dir = path.resolve('some-state');
    const store = await openStore({ kind: 'folder', path: dir, filesDir: path.resolve('jobs') });
    expect(store.location).toBe(dir);
    expect(store.jobFiles('promo').report).toBe(path.resolve('jobs', 'promo', 'report.csv'));
  });
});

describe('a database store is named by --store or OUTREACH_STORE', () => {
  const url = 'postgres://runner:s3cret-pw@db.example.com:5433/outreach';

  it('keeps the state folder when neither is set (nothing changes for a file-store user)', () => {
    expect(storeWhere({}, { OUTREACH_STORE: '', HOME: '/home/ana' }, 'jobs/a.json')).toMatchObject({ kind: 'folder', path: '/home/ana/.local/state/outreach' });
  });

  it('takes a postgres:// or postgresql:// URL, with the files for people beside the job file (or in the folder --state-dir names)', () => {
    expect(storeWhere({ store: url }, {}, 'jobs/a.json')).toEqual({ kind: 'postgres', url, filesDir: path.resolve('jobs'), legacy: path.resolve('jobs', '.outreach') });
    const other = 'postgresql://runner@/outreach?host=/run/postgresql&sslmode=disable';
    expect(storeWhere({ stateDir: 'people' }, { OUTREACH_STORE: other })).toEqual({ kind: 'postgres', url: other, filesDir: path.resolve('people') });
  });

  it('lets --store win over OUTREACH_STORE', () => {
    expect(storeWhere({ store: url }, { OUTREACH_STORE: 'postgres://other@elsewhere/x' })).toMatchObject({ kind: 'postgres', url });
  });

  it('refuses another scheme in one sentence naming where it came from, without the password', () => {
    const err = (() => {
      try {
        storeWhere({}, { OUTREACH_STORE: 'mysql://root:s3cret-pw@db/x' });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(2);
    expect((err as Error).message).toMatch(/^OUTREACH_STORE: "mysql:\/\/" is not a store outreach can use; /);
    expect((err as Error).message).not.toContain('s3cret-pw');
    expect(() => storeWhere({ store: 'root:s3cret-pw@db' }, {})).toThrow(/^--store: .* is not a URL/);
    expect(() => storeWhere({ store: 'root:s3cret-pw@db' }, {})).not.toThrow(/s3cret/);
  });

  it('refuses a malformed database URL with its password masked (exit 2)', () => {
    const bad = 'postgres://runner:s3cret-pw@db.example.com:5433/outreach?schema=Bad-Name';
    let err: unknown;
    try {
      storeWhere({ store: bad }, {});
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ userError: true });
    expect((err as { exitCode?: number }).exitCode ?? 2).toBe(2);
    expect((err as Error).message).toContain('postgres://runner:***@db.example.com:5433/outreach');
    expect((err as Error).message).not.toContain('s3cret-pw');
  });

  it('opens a database store whose location is the URL with its password masked', async () => {
    const store = await openStore({ kind: 'postgres', url, filesDir: path.resolve('people') });
    try {
      expect(store.location).toBe('postgres://runner:***@db.example.com:5433/outreach');
      expect(store.jobFiles('promo').report).toBe(path.resolve('people', 'promo', 'report.csv'));
    } finally {
      await store.close();
    }
  });

  it('opens the database store for a command without a job (suppress, webhook, sync)', async () => {
    const store = await storeFor({ store: url }, undefined, {});
    try {
      expect(store.location).toBe('postgres://runner:***@db.example.com:5433/outreach');
    } finally {
      await store.close();
    }
  });
});

describe('every command lets its store go when it is done', () => {
  it('closes the store after the work, whether the work succeeded or failed', async () => {
    let closed = 0;
    const store = { ...(await openStore({ kind: 'folder', path: path.resolve('some-state'), filesDir: path.resolve('some-state') })), close: async () => void (closed += 1) } satisfies StateStore;
    expect(await usingStore(store, async () => 'done')).toBe('done');
    await expect(usingStore(store, async () => Promise.reject(new Error('broke')))).rejects.toThrow('broke');
    expect(closed).toBe(2);
  });
});
