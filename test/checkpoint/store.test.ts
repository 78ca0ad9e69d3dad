import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileStore, StoreWriteError, type CheckpointEvent } from '../../src/checkpoint/backends.js';
import { globalStatePaths, jobStatePaths, readJournal, replay } from '../../src/checkpoint/file/index.js';
import { AT, attempt, failed, phoneOf, sent, tempDir } from './helpers.js';

const header: CheckpointEvent = { t: 'header', v: 1, job: 'promo', fingerprint: 'f1', content: {}, at: AT };
const owner = { pid: process.pid, startedAt: AT, command: 'test' };

describe('the file store', () => {
  it('creates the job folder and starts a new job with an empty state and no header', async () => {
    const store = createFileStore(await tempDir());
    const job = await store.openJob('promo', owner);
    expect(job.files).toEqual(store.jobFiles('promo'));
    expect(job.states.size).toBe(0);
    expect(job.header).toBeUndefined();
    await job.record(header);
    expect(job.header).toEqual(header);
    await job.close();
    expect((await store.readJob('promo'))?.header).toEqual(header);
  });

  it('keeps its live state equal to what a restart replays', async () => {
    const store = createFileStore(await tempDir());
    const job = await store.openJob('promo', owner);
    await job.record(header);
    await Promise.all(
      Array.from({ length: 64 }, async (_, i) => {
        const p = phoneOf(i);
        await job.record(attempt(p, { line: i + 2 }));
        if (i % 3 === 0) await job.record(sent(p, i));
        else if (i % 3 === 1) await job.record(failed(p, { status: 502, retryable: true, client_id: `c${i}` }));
        // i % 3 === 2: left in flight
      }),
    );
    await job.close();

    const again = await store.openJob('promo', owner);
    // The same states (two tables may hold them in differently laid-out columns: compared as maps).
    expect(new Map(again.states)).toEqual(new Map(job.states));
    expect(again.header).toEqual(header);
    expect([...again.states.values()].filter((s) => s.status === 'in_doubt')).toHaveLength(21);
    await again.close();
  });

  it('updates the state only once the event is on disk', async () => {
    const dir = await tempDir();
    const job = await createFileStore(dir).openJob('promo', owner);
    const p = phoneOf(1);
    const recording = job.record(attempt(p));
    expect(job.states.has(p)).toBe(false);
    await recording;
    expect(job.states.get(p)?.status).toBe('in_doubt');
    expect(await readFile(jobStatePaths(dir, 'promo').checkpoint, 'utf8')).toContain(p);
    await job.close();
  });

  it('tells of torn records found at open, as a sentence naming the line, and keeps appending after them', async () => {
    const dir = await tempDir();
    const store = createFileStore(dir);
    const { checkpoint } = jobStatePaths(dir, 'promo');
    const first = await store.openJob('promo', owner);
    await first.record(attempt(phoneOf(1)));
    await first.close();
    await writeFile(checkpoint, (await readFile(checkpoint, 'utf8')) + '{"t":"sent","phone":"+5');

    const job = await store.openJob('promo', owner);
    expect(job.notices).toEqual([{ level: 'warn', message: `${checkpoint} line 2 could not be read and was skipped (a torn write)` }]);
    await job.record(sent(phoneOf(1)));
    await job.close();
    const read = await readJournal(checkpoint);
    expect(replay(read.events).get(phoneOf(1))?.status).toBe('sent');
  });

  it('rejects a write the folder refuses with the port\'s StoreWriteError, naming the file and the fix', async () => {
    const dir = await tempDir();
    const store = createFileStore(dir);
    const { planRejects } = jobStatePaths(dir, 'promo');
    const { sync, window } = globalStatePaths(dir);
    for (const blocked of [planRejects, sync]) await mkdir(path.join(blocked, 'in-the-way'), { recursive: true });
    const writes = [
      [planRejects, () => store.savePlanRejects('promo', [{ file: 'a.csv', line: 2 }])],
      [sync, () => store.saveSyncBook({ updatedAt: null, conversations: new Map(), lastRun: AT })],
    ] as const;
    for (const [file, write] of writes) {
      const err = await write().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StoreWriteError);
      expect((err as StoreWriteError).message.endsWith(` ${file}: a folder is in its place; move it out of the way or pass another --state-dir`)).toBe(true);
      expect((err as StoreWriteError).message).toMatch(/^could not write the /);
      expect((err as StoreWriteError).userError).toBe(true);
    }
    const windows = await store.openWindowStore();
    windows.noteInbound({ clientId: 'c1', at: Date.parse(AT) });
    await mkdir(path.join(window, 'in-the-way'), { recursive: true });
    await expect(windows.flush()).rejects.toBeInstanceOf(StoreWriteError);
  });

  it('refuses a job name that would leave the state folder', async () => {
    const store = createFileStore(await tempDir());
    await expect(store.openJob('../other', owner)).rejects.toThrow(/cannot be used as a folder name/);
    expect(() => store.jobFiles('..')).toThrow(/folder name/);
  });

  it('refuses a second holder of a job while the first holds it, naming its pid', async () => {
    const store = createFileStore(await tempDir());
    const job = await store.openJob('promo', owner);
    await expect(store.openJob('promo', { ...owner, pid: 1 })).rejects.toThrow(new RegExp(`pid ${process.pid}`));
    await job.close();
    const again = await store.openJob('promo', owner);
    await again.close();
  });

  it('compacts a journal that has grown to many events per contact while opening it, keeping the state', async () => {
    const store = createFileStore(await tempDir());
    const job = await store.openJob('promo', owner);
    for (let i = 0; i < 12; i++) await job.record(failed(phoneOf(1), { status: 429, retryable: true }));
    await job.record(sent(phoneOf(1)));
    const before = job.states.get(phoneOf(1));
    await job.close();
    const again = await store.openJob('promo', owner);
    expect(again.notices).toHaveLength(1);
    expect(again.notices[0]?.level).toBe('info');
    expect(again.notices[0]?.message).toMatch(/^the checkpoint .*checkpoint\.jsonl was compacted from 13 events to [1-9]\d? /);
    expect(again.states.get(phoneOf(1))).toEqual(before);
    await again.close();
  });

  it('reads a job without its lock, and says a job never run is not there', async () => {
    const store = createFileStore(await tempDir());
    expect(await store.readJob('promo')).toBeUndefined();
    const job = await store.openJob('promo', owner);
    await job.record(sent(phoneOf(3)));
    expect((await store.readJob('promo'))?.states.get(phoneOf(3))?.status).toBe('sent');
    await job.close();
  });

  it('remembers the rows a plan rejected, and knows every job phone by client id', async () => {
    const dir = await tempDir();
    const store = createFileStore(dir);
    expect(await store.planRejects('promo')).toEqual(new Set());
    await store.savePlanRejects('promo', [{ file: path.join(dir, 'a.csv'), line: 4 }]);
    expect(await store.planRejects('promo')).toEqual(new Set([`${path.join(dir, 'a.csv')}:4`]));
    const job = await store.openJob('promo', owner);
    await job.record(failed(phoneOf(7), { status: 502, retryable: true, client_id: 'c7', conversation_id: 'v7' }));
    await job.close();
    expect(await store.knownPhones()).toEqual(new Map([['c7', phoneOf(7)]]));
  });
});
