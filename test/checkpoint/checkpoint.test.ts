import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { jobStatePaths, openCheckpoint, readJournal, replay, type CheckpointEvent } from '../../src/checkpoint/index.js';
import { AT, attempt, failed, phoneOf, sent, tempDir } from './helpers.js';

const header: CheckpointEvent = { t: 'header', v: 1, job: 'promo', fingerprint: 'f1', content: {}, at: AT };

describe('openCheckpoint', () => {
  it('creates the job folder and starts a new job with an empty state and no header', async () => {
    const stateDir = await tempDir();
    const cp = await openCheckpoint(stateDir, 'promo');
    expect(cp.paths).toEqual(jobStatePaths(stateDir, 'promo'));
    expect(cp.state.size).toBe(0);
    expect(cp.header).toBeUndefined();
    await cp.record(header);
    expect(cp.header).toEqual(header);
    await cp.close();
    expect((await readJournal(cp.paths.checkpoint)).header).toEqual(header);
  });

  it('keeps its live state equal to what a restart replays', async () => {
    const stateDir = await tempDir();
    const cp = await openCheckpoint(stateDir, 'promo');
    await cp.record(header);
    await Promise.all(
      Array.from({ length: 64 }, async (_, i) => {
        const p = phoneOf(i);
        await cp.record(attempt(p, { line: i + 2 }));
        if (i % 3 === 0) await cp.record(sent(p, i));
        else if (i % 3 === 1) await cp.record(failed(p, { status: 502, retryable: true, client_id: `c${i}` }));
        // i % 3 === 2: left in flight
      }),
    );
    await cp.close();

    const again = await openCheckpoint(stateDir, 'promo');
    expect(again.state).toEqual(cp.state);
    expect(again.header).toEqual(header);
    expect(again.eventsAtOpen).toBe(64 + 43);
    expect([...again.state.values()].filter((s) => s.status === 'in_doubt')).toHaveLength(21);
    await again.close();
  });

  it('updates the state only once the event is on disk', async () => {
    const stateDir = await tempDir();
    const cp = await openCheckpoint(stateDir, 'promo');
    const p = phoneOf(1);
    const recording = cp.record(attempt(p));
    expect(cp.state.has(p)).toBe(false);
    await recording;
    expect(cp.state.get(p)?.status).toBe('in_doubt');
    expect(await readFile(cp.paths.checkpoint, 'utf8')).toContain(p);
    await cp.close();
  });

  it('reports torn lines found at open and keeps appending after them', async () => {
    const stateDir = await tempDir();
    const { checkpoint } = jobStatePaths(stateDir, 'promo');
    const first = await openCheckpoint(stateDir, 'promo');
    await first.record(attempt(phoneOf(1)));
    await first.close();
    await writeFile(checkpoint, (await readFile(checkpoint, 'utf8')) + '{"t":"sent","phone":"+5');

    const cp = await openCheckpoint(stateDir, 'promo');
    expect(cp.tornLines).toBe(1);
    expect(cp.tornLineNumbers).toEqual([2]);
    await cp.record(sent(phoneOf(1)));
    await cp.close();
    const read = await readJournal(checkpoint);
    expect(replay(read.events).get(phoneOf(1))?.status).toBe('sent');
  });

  it('refuses a job name that would leave the state folder', async () => {
    const stateDir = await tempDir();
    await expect(openCheckpoint(stateDir, '../other')).rejects.toThrow(/cannot be used as a folder name/);
    expect(() => jobStatePaths(stateDir, '..')).toThrow(/folder name/);
  });
});
