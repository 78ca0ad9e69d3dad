/** The file store's messaging-limit holds: shared by every process of the state folder through a holds file under a lock. */
import { readFile, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileStore } from '../../src/checkpoint/backends.js';
import { AT, tempDir } from './helpers.js';

const at = Date.parse(AT);
const MINUTE = 60_000;
const SECOND = 1_000;
const outside = (n: number, when: number) => ({ phone: `+551196000${String(n).padStart(4, '0')}`, at: when, job: 'promo', outsideWindow: true, id: `e-${n}` });

/** The pid of a process of this host that has ended. */
async function deadPid(): Promise<number> {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid ?? 0;
}

describe('the file store\'s messaging-limit holds', () => {
  it('keeps the places of a silent holder for 30 seconds after its last take (as a lease), then lets them lapse', async () => {
    const dir = await tempDir();
    const dead = await createFileStore(dir).budgetHolder();
    expect(await dead.take(6, 10, at)).toBe(6);
    const live = await createFileStore(dir).budgetHolder();
    expect(await live.take(10, 10, at + 20 * SECOND)).toBe(4);
    expect(await live.take(10, 10, at + 30 * SECOND - 1)).toBe(0);
    expect(await live.take(10, 10, at + 30 * SECOND + 1)).toBe(6);
    expect(live.held).toBe(10);
  });

  it('counts a use of a place and a renewal as signs of life: the rest of the hold lapses 30 seconds after the last', async () => {
    const dir = await tempDir();
    const store = createFileStore(dir);
    const dying = await store.budgetHolder();
    expect(await dying.take(5, 10, at)).toBe(5);
    await (await store.ledger()).record(outside(1, at + 20 * SECOND), dying);
    await dying.renew(at + 40 * SECOND);
    const live = await createFileStore(dir).budgetHolder();
    // 1 in the ledger, 4 still held at 60 s; they lapse at 70.
    expect(await live.take(10, 10, at + 60 * SECOND)).toBe(5);
    expect(await live.take(10, 10, at + 70 * SECOND + 1)).toBe(4);
  });

  it('gives back at once the places of a holder of this host whose process is gone', async () => {
    const dir = await tempDir();
    const holder = await createFileStore(dir).budgetHolder();
    expect(await holder.take(6, 10, at)).toBe(6);
    const file = path.join(dir, 'budget-holds.json');
    const text = JSON.parse(await readFile(file, 'utf8')) as { holds: Record<string, { pid: number }> };
    for (const h of Object.values(text.holds)) h.pid = await deadPid();
    await writeFile(file, JSON.stringify(text));
    const live = await createFileStore(dir).budgetHolder();
    expect(await live.take(10, 10, at + SECOND)).toBe(10);
  });

  it('keeps the holds in a file of the state folder, which another process reads', async () => {
    const dir = await tempDir();
    const holder = await createFileStore(dir).budgetHolder();
    await holder.take(3, 10, at);
    const text = await readFile(path.join(dir, 'budget-holds.json'), 'utf8');
    const holds = (JSON.parse(text) as { holds: Record<string, { granted: number }> }).holds;
    expect(Object.values(holds).map((h) => h.granted)).toEqual([3]);
    await holder.release();
    const after = (JSON.parse(await readFile(path.join(dir, 'budget-holds.json'), 'utf8')) as { holds: Record<string, unknown> }).holds;
    expect(after).toEqual({});
  });

  it('breaks a lock left by a process that died while taking (an old lock file), and takes', async () => {
    const dir = await tempDir();
    const lock = path.join(dir, 'budget-holds.lock');
    await writeFile(lock, JSON.stringify({ pid: 999_999, host: 'gone-host', at: AT }));
    const old = new Date(Date.now() - 5 * MINUTE);
    await utimes(lock, old, old);
    const holder = await createFileStore(dir).budgetHolder();
    expect(await holder.take(2, 10, at)).toBe(2);
    await expect(readFile(lock)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
