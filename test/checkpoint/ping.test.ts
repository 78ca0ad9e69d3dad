import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileStore, createPgStore, StoreUnavailableError } from '../../src/checkpoint/index.js';
import { freePort } from '../helpers/pg-cluster.js';

let dir: string;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a ping of a store that cannot be used', () => {
  it('names the state folder when a file stands where the folder should be', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'outreach-ping-'));
    const where = path.join(dir, 'state');
    await writeFile(where, 'not a folder');
    const err = await createFileStore(where).ping().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreUnavailableError);
    expect((err as Error).message).toBe(`the state folder ${where} cannot be used: it is a file, not a folder; fix the folder (or its disk), or pass another --state-dir, then run again`);
  });

  it('answers for a state folder not made yet inside a folder it may write', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'outreach-ping-'));
    await expect(createFileStore(path.join(dir, 'not', 'yet')).ping()).resolves.toBeUndefined();
  });

  it('names the database by host, port and name, never its password, when nothing listens there', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'outreach-ping-'));
    const port = await freePort();
    const store = createPgStore(`postgres://outreach:s3cret@127.0.0.1:${port}/outreach`, { filesDir: dir, connectTimeoutMs: 1_000 });
    try {
      const err = await store.ping().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StoreUnavailableError);
      expect((err as Error).message).toMatch(new RegExp(`^the store \\(database outreach on 127\\.0\\.0\\.1:${port}\\) cannot be used: the connection was refused`));
      expect((err as Error).message).not.toContain('s3cret');
    } finally {
      await store.close();
    }
  });
});
