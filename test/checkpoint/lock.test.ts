import { spawn } from 'node:child_process';
import { readFile, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireLock, isProcessAlive, LockedError, type Lock } from '../../src/checkpoint/file/index.js';
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

  it('refuses a second run while the first holds the lock, naming its pid', async () => {
    const file = await lockFileIn();
    const first = await acquireLock(file, info);
    const second = acquireLock(file, { ...info, startedAt: '2025-01-01T11:00:00.000Z' });
    await expect(second).rejects.toBeInstanceOf(LockedError);
    await expect(second).rejects.toMatchObject({
      userError: true,
      pid: process.pid,
      message: `job "promo" is already running (pid ${process.pid}, started 2025-01-01T10:00:00.000Z); wait for it or stop it`,
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
        Array.from({ length: 12 }, (_, i) => acquireLock(file, { ...info, command: `racer ${i}` })),
      );
      const won = results.filter((r): r is PromiseFulfilledResult<Lock> => r.status === 'fulfilled');
      expect(won).toHaveLength(1);
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(lost.every((r) => r.reason instanceof LockedError)).toBe(true);
      // The file names the winner.
      expect(JSON.parse(await readFile(file, 'utf8')).command).toBe(`racer ${results.indexOf(won[0]!)}`);
      await won[0]!.value.release();
      expect(await readdir(path.dirname(file))).toEqual([]);
    }
  });

  it('clears a takeover left half-done by a crash once it is old', async () => {
    const file = await lockFileIn();
    await writeFile(file, JSON.stringify({ pid: await deadPid(), host: hostname(), startedAt: 'x', command: 'x' }));
    await writeFile(`${file}.takeover`, '1234\n');
    await expect(acquireLock(file, info)).rejects.toThrow(/taking over/);
    const old = new Date(Date.now() - 60_000);
    await utimes(`${file}.takeover`, old, old);
    const lock = await acquireLock(file, info);
    expect(await readdir(path.dirname(file))).toEqual(['lock']);
    await lock.release();
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

  it('treats an unreadable lock as being written when fresh, and as stale when old', async () => {
    const file = await lockFileIn();
    await writeFile(file, '');
    await expect(acquireLock(file, info)).rejects.toBeInstanceOf(LockedError);
    const old = new Date(Date.now() - 60_000);
    await utimes(file, old, old);
    const lock = await acquireLock(file, info);
    expect(lock.tookOverFrom).toBeUndefined();
    await lock.release();
  });

  it('sees this process as alive and a pid that exited as dead', async () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(await deadPid())).toBe(false);
  });
});
