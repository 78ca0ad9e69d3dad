import { spawn } from 'node:child_process';
import { readFile, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireLock, isProcessAlive, lockHolder, LockedError, LockWriteError, type Lock, type LockIo } from '../../src/checkpoint/file/index.js';
import { STALE_LOCK_MS, withShortLock } from '../../src/checkpoint/file/lock.js';
import { tempDir } from './helpers.js';

const info = { pid: process.pid, startedAt: '2025-01-01T10:00:00.000Z', command: 'outreach run promo.yaml' };

async function lockFileIn(): Promise<string> {
  const dir = path.join(await tempDir(), 'promo');
  const { mkdir } = await import('node:fs/promises');
  await mkdir(dir);
  return path.join(dir, 'lock');
}

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => child.on('exit', r));
  return child.pid!;
}

describe('job lock', () => {
  it('writes who holds it, and release removes the file', async () => {
    const file = await lockFileIn();
    const lock = await acquireLock(file, info);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ ...info, host: hostname() });
    expect(lock.tookOverFrom).toBeUndefined();
    await lock.release();
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
    await lock.release(); // twice is fine
  });

  it('refuses a second run while the first holds the lock, naming its host and pid', async () => {
    const file = await lockFileIn();
    const first = await acquireLock(file, info);
    const second = acquireLock(file, { ...info, startedAt: '2025-01-01T11:00:00.000Z' });
    await expect(second).rejects.toBeInstanceOf(LockedError);
    await expect(second).rejects.toMatchObject({
      userError: true,
      pid: process.pid,
      message: `job "promo" is already running (pid ${process.pid} on host ${hostname()}, started 2025-01-01T10:00:00.000Z); wait for it or stop it`,
    });
    await first.release();
    const third = await acquireLock(file, info);
    await third.release();
  });

  it('takes over a lock left by a dead process and says whose it was', async () => {
    const file = await lockFileIn();
    const dead = await deadPid();
    expect(isProcessAlive(dead)).toBe(false);
    await writeFile(file, JSON.stringify({ pid: dead, host: hostname(), startedAt: 'yesterday', command: 'outreach run' }));

    const lock = await acquireLock(file, info);
    expect(lock.tookOverFrom).toBe(dead);
    expect(JSON.parse(await readFile(file, 'utf8')).pid).toBe(process.pid);
    expect(await readdir(path.dirname(file))).toEqual(['lock']);
    await lock.release();
  });

  it('lets exactly one of several processes racing for a stale lock take it', async () => {
    const file = await lockFileIn();
    const dead = await deadPid();
    for (let round = 0; round < 25; round++) {
      const stale = JSON.stringify({ pid: dead, host: hostname(), startedAt: `round ${round}`, command: 'x' });
      await writeFile(file, stale);
      const results = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) => acquireLock(file, { ...info, startedAt: `round ${round} racer ${i}`, command: `racer ${i}` })),
      );
      const won = results.filter((r): r is PromiseFulfilledResult<Lock> => r.status === 'fulfilled');
      expect(won).toHaveLength(1);
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(lost.every((r) => r.reason instanceof LockedError)).toBe(true);
      // Every refusal names the holder: its pid, and its start (which says which racer it is).
      const winner = results.indexOf(won[0]!);
      for (const r of lost) {
        expect(r.reason).toMatchObject({ pid: process.pid, message: expect.stringContaining(`started round ${round} racer ${winner})`) });
      }
      // The file names the winner.
      expect(JSON.parse(await readFile(file, 'utf8')).command).toBe(`racer ${results.indexOf(won[0]!)}`);
      await won[0]!.value.release();
      expect(await readdir(path.dirname(file))).toEqual([]);
    }
  });

  it('does not release a lock that another process has since taken', async () => {
    const file = await lockFileIn();
    const lock = await acquireLock(file, info);
    await writeFile(file, JSON.stringify({ ...info, command: 'someone else' }));
    await lock.release();
    expect(JSON.parse(await readFile(file, 'utf8')).command).toBe('someone else');
  });

  it('refuses a lock held on another host, which cannot be checked', async () => {
    const file = await lockFileIn();
    await writeFile(file, JSON.stringify({ pid: 4242, host: 'other-box', startedAt: 'x', command: 'x' }));
    await expect(acquireLock(file, info)).rejects.toThrow(/pid 4242.*other-box/);
  });

  it('records the host its owner names, and refuses others naming that host', async () => {
    const file = await lockFileIn();
    const lock = await acquireLock(file, { ...info, host: 'runner-7' });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ ...info, host: 'runner-7' });
    await expect(acquireLock(file, info)).rejects.toThrow(/pid \d+ on host runner-7/);
    await lock.release();
  });

  it('sees this process as alive and a pid that exited as dead', async () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(await deadPid())).toBe(false);
  });

  it('sees nothing written as a lock when the disk is full before or while it is written', async () => {
    const file = await lockFileIn();
    const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    const fullBefore: LockIo['writeFile'] = async (f) => {
      await writeFile(f, '', { flag: 'wx' }); // the file is made, then no byte fits
      throw enospc();
    };
    const fullWhile: LockIo['writeFile'] = async (f, data) => {
      await writeFile(f, data.slice(0, 12), { flag: 'wx' }); // half of it fits
      throw enospc();
    };
    for (const writeFile of [fullBefore, fullWhile]) {
      const err = await acquireLock(file, info, { writeFile }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LockWriteError);
      expect(err).toMatchObject({
        userError: true,
        message: `cannot write the job lock ${file}: the disk is full (ENOSPC); free some space and run again`,
      });
      expect(await readdir(path.dirname(file))).toEqual([]); // no lock, empty or torn, and no temporary file
    }
    const lock = await acquireLock(file, info);
    expect(JSON.parse(await readFile(file, 'utf8')).pid).toBe(process.pid);
    await lock.release();
  });

  it('never lets a holder stalled while writing its lock and another process both hold it', async () => {
    const file = await lockFileIn();
    let resume: () => void = () => {};
    const stalled = new Promise<void>((r) => (resume = r));
    let started: () => void = () => {};
    const writing = new Promise<void>((r) => (started = r));
    const slowWrite: LockIo['writeFile'] = async (f, data) => {
      await writeFile(f, '', { flag: 'wx' });
      started();
      await stalled; // stalled between creating and writing, for as long as it takes
      await writeFile(f, data);
    };
    const first = acquireLock(file, { ...info, startedAt: 'the stalled one' }, { writeFile: slowWrite }).catch((e: unknown) => e);
    await writing;
    const second = await acquireLock(file, { ...info, startedAt: 'the second' });
    resume();
    const err = await first;
    expect(err).toBeInstanceOf(LockedError);
    expect(err).toMatchObject({ pid: process.pid, message: expect.stringContaining('started the second') });
    expect(await readdir(path.dirname(file))).toEqual(['lock']);
    await second.release();
  });

  it('takes over at once an unreadable lock older than a few seconds, or a torn one whose process is gone', async () => {
    const file = await lockFileIn();
    const dead = await deadPid();
    for (const [text, age] of [
      ['', 6_000],
      ['{"pid":', 6_000],
      [`{"pid":${dead},"host":"${hostname()}","startedAt":"2025-`, 0],
    ] as const) {
      await writeFile(file, text);
      const then = new Date(Date.now() - age);
      await utimes(file, then, then);
      const waits: number[] = [];
      const lock = await acquireLock(file, info, { sleep: async (ms) => void waits.push(ms) });
      expect(waits).toEqual([]);
      expect(JSON.parse(await readFile(file, 'utf8')).pid).toBe(process.pid);
      await lock.release();
    }
  });

  it('waits out an unreadable lock being written, then refuses naming its pid once it is whole', async () => {
    const file = await lockFileIn();
    await writeFile(file, '');
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 10000)']);
    try {
      setTimeout(() => void writeFile(file, JSON.stringify({ pid: other.pid, host: hostname(), startedAt: 'now', command: 'x' })), 200);
      const err = await acquireLock(file, info).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LockedError);
      expect(err).toMatchObject({ pid: other.pid, message: `job "promo" is already running (pid ${other.pid} on host ${hostname()}, started now); wait for it or stop it` });
    } finally {
      other.kill();
    }
  });

  it('refuses a torn lock whose process is alive, naming its pid', async () => {
    const file = await lockFileIn();
    await writeFile(file, `{"pid":${process.pid},"host":"${hostname()}","sta`);
    await expect(acquireLock(file, info)).rejects.toMatchObject({ pid: process.pid });
  });

  it('lets exactly one of several processes past a takeover whose holder died, and clears what it left', async () => {
    const file = await lockFileIn();
    const dead = await deadPid();
    await writeFile(file, JSON.stringify({ pid: dead, host: hostname(), startedAt: 'x', command: 'x' }));
    // A takeover that placed its mark, then died before removing the stale lock.
    const dies: LockIo['writeFile'] = async (f, data) => {
      if (!f.includes('.takeover-')) return writeFile(f, data, { flag: 'wx' });
      await writeFile(f.replace(/\.\d+\.[0-9a-f]+\.tmp$/, ''), JSON.stringify({ pid: dead, host: hostname() }));
      throw new Error('killed');
    };
    await expect(acquireLock(file, info, { writeFile: dies })).rejects.toThrow();
    expect((await readdir(path.dirname(file))).sort()).toEqual(['lock', expect.stringMatching(/^lock\.takeover-[0-9a-f]+-0$/)]);

    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) => acquireLock(file, { ...info, startedAt: `racer ${i}`, command: `racer ${i}` })),
    );
    const won = results.filter((r): r is PromiseFulfilledResult<Lock> => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    const winner = results.indexOf(won[0]!);
    for (const r of results) {
      if (r.status === 'rejected') expect(r.reason).toMatchObject({ pid: process.pid, message: expect.stringContaining(`racer ${winner})`) });
    }
    expect(won[0]!.value.tookOverFrom).toBe(dead);
    expect(await readdir(path.dirname(file))).toEqual(['lock']);
    await won[0]!.value.release();
  });
});

describe('who holds the job lock, read without taking it', () => {
  it('names the live holder of this host, and the holder on another host (which cannot be checked)', async () => {
    const file = await lockFileIn();
    expect(await lockHolder(file)).toBeUndefined();
    const lock = await acquireLock(file, info);
    expect(await lockHolder(file)).toEqual({ ...info, host: hostname() });
    await lock.release();
    await writeFile(file, JSON.stringify({ pid: 4242, host: 'other-box', startedAt: 'x', command: 'outreach run' }));
    expect(await lockHolder(file)).toMatchObject({ pid: 4242, host: 'other-box' });
  });

  it('takes a lock left by a dead process of this host as nobody running', async () => {
    const file = await lockFileIn();
    await writeFile(file, JSON.stringify({ pid: await deadPid(), host: hostname(), startedAt: 'yesterday', command: 'outreach run' }));
    expect(await lockHolder(file)).toBeUndefined();
  });
});

describe('the short lock (the same lock file, held for a read-and-rewrite)', () => {
  it('lets one holder at a time do its work, the others waiting their turn, and leaves nothing behind', async () => {
    const file = await lockFileIn();
    let inside = 0;
    let most = 0;
    const work = async () => {
      inside += 1;
      most = Math.max(most, inside);
      await new Promise((r) => setImmediate(r));
      inside -= 1;
    };
    await Promise.all(Array.from({ length: 6 }, () => withShortLock(file, 'the test', work)));
    expect(most).toBe(1);
    expect(await readdir(path.dirname(file))).toEqual([]);
  });

  it('takes over at once a lock whose process on this host is gone, and by age one of another host', async () => {
    const file = await lockFileIn();
    await writeFile(file, JSON.stringify({ pid: await deadPid(), host: hostname() }));
    expect(await withShortLock(file, 'the test', async () => 'ran')).toBe('ran');
    await writeFile(file, JSON.stringify({ pid: 1, host: 'elsewhere' }));
    const old = new Date(Date.now() - STALE_LOCK_MS - 60_000);
    await utimes(file, old, old);
    expect(await withShortLock(file, 'the test', async () => 'ran again')).toBe('ran again');
    expect(await readdir(path.dirname(file))).toEqual([]);
  });

  it('waits for a live holder of another host, and gives up after its patience naming the lock file', async () => {
    const file = await lockFileIn();
    await writeFile(file, JSON.stringify({ pid: 1, host: 'elsewhere' }));
    // Written just now as far as the lock's age goes; each look moves the wall clock on 10 s, so the minute of patience passes in a few looks, never measured.
    const fresh = new Date(Date.now() + 3_600_000);
    await utimes(file, fresh, fresh);
    let now = Date.now();
    const wallClock = () => (now += 10_000);
    await expect(withShortLock(file, 'the holds', async () => 'never', { wallClock })).rejects.toThrow(`could not take the lock ${file} of the holds: another process has held it for a minute`);
  });
});
