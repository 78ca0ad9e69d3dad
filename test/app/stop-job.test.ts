import { describe, expect, it } from 'vitest';
import { stopJob } from '../../src/app/index.js';
import type { JobRunner, StateStore } from '../../src/checkpoint/index.js';

const runner = (host: string, pid = 4242): JobRunner => ({ host, pid, since: '2026-11-27T12:00:00.000Z', command: 'run' });
const storeWith = (r: JobRunner | undefined) => ({ runningBy: async () => r }) as unknown as StateStore;

describe('stopJob: asking the process that holds a job to stop', () => {
  it('signals the owner when it runs on this host', async () => {
    const signalled: number[] = [];
    const out = await stopJob('promo', { store: storeWith(runner('here')), host: 'here', signal: (pid) => (signalled.push(pid), true) });
    expect(out).toEqual({ kind: 'signalled', runner: runner('here') });
    expect(signalled).toEqual([4242]);
  });

  it('says which host holds it when that is another one, and signals nobody', async () => {
    const signalled: number[] = [];
    const out = await stopJob('promo', { store: storeWith(runner('db-2')), host: 'here', signal: (pid) => (signalled.push(pid), true) });
    expect(out).toEqual({ kind: 'other_host', runner: runner('db-2') });
    expect(signalled).toEqual([]);
  });

  it('says nothing holds the job when nobody does, or when the holder is gone or not ours', async () => {
    expect(await stopJob('promo', { store: storeWith(undefined), host: 'here', signal: () => true })).toEqual({ kind: 'not_running' });
    expect(await stopJob('promo', { store: storeWith(runner('here')), host: 'here', signal: () => false })).toEqual({ kind: 'gone', runner: runner('here') });
  });
});
