/**
 * The storage port's contract for `StateStore.jobs`: the list of the jobs a store holds (what the
 * console shows), the same on every backend, seen whole and by a company's part.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CheckpointEvent, StateStore } from '../../../src/checkpoint/index.js';
import { AT, phoneOf, sent } from '../helpers.js';
import { backends, type OpenedBackend } from './backends.js';

const owner = { host: 'runner-a', pid: process.pid, startedAt: AT, command: 'run' };

/** A header of job `name` of `company`, started from a job file on host box-1. */
function header(name: string, company?: number): CheckpointEvent {
  return {
    t: 'header',
    v: 1,
    job: name,
    fingerprint: 'f1',
    content: company === undefined ? {} : { company_id: company, channel_id: 10 },
    job_file: `/srv/campaigns/${name}.json`,
    host: 'box-1',
    at: AT,
  };
}

describe.each(backends)('the jobs a store holds, on the $name backend', (backend) => {
  let place: OpenedBackend;
  let store: StateStore;
  beforeEach(async () => {
    place = await backend.open();
    store = place.store;
  });
  afterEach(async () => {
    await place.cleanup();
  });

  async function ran(view: StateStore, name: string, events: CheckpointEvent[]): Promise<void> {
    const job = await view.openJob(name, owner);
    for (const e of events) await job.record(e);
    await job.close();
  }

  it('lists none in an empty store', async () => {
    expect(await store.jobs()).toEqual([]);
  });

  it('lists every job opened once, by key, with its name, company, job file, host and start as its first header recorded, to another process too', async () => {
    await ran(store.account(1), 'winter', [header('winter', 1), sent(phoneOf(1), 1)]);
    await ran(store, 'autumn', [header('autumn'), sent(phoneOf(2), 2)]);
    const listed = await (await place.another()).jobs();
    expect(listed).toEqual([
      { key: 'autumn', name: 'autumn', jobFile: '/srv/campaigns/autumn.json', host: 'box-1', startedAt: AT },
      { key: 'winter', name: 'winter', company: 1, jobFile: '/srv/campaigns/winter.json', host: 'box-1', startedAt: AT },
    ]);
    for (const job of listed) expect((await store.readJob(job.key))?.header?.job).toBe(job.name);
  });

  it('lists a job opened and never written by its key alone', async () => {
    await ran(store, 'planned', []);
    expect(await store.jobs()).toEqual([{ key: 'planned', name: 'planned' }]);
  });

  it("tells two companies' jobs of one name apart: by key in the store seen whole, by name in each company's part, a job of no company in both", async () => {
    await ran(store.account(1), 'promo', [header('promo', 1)]);
    await ran(store.account(2), 'promo', [header('promo', 2), sent(phoneOf(3), 3)]);
    await ran(store, 'legacy', [header('legacy')]);
    const whole = await (await place.another()).jobs();
    expect(whole.map((j) => [j.key, j.name, j.company])).toEqual([
      ['legacy', 'legacy', undefined],
      ['promo', 'promo', 1],
      ['promo@2', 'promo', 2],
    ]);
    expect((await store.readJob('promo@2'))?.states.get(phoneOf(3))?.status).toBe('sent');
    const two = await store.account(2).jobs();
    expect(two.map((j) => [j.key, j.company])).toEqual([
      ['legacy', undefined],
      ['promo', 2],
    ]);
    expect((await store.account(2).readJob(two[1]!.key))?.states.get(phoneOf(3))?.status).toBe('sent');
    expect((await store.account(1).jobs()).map((j) => [j.key, j.company])).toEqual([
      ['legacy', undefined],
      ['promo', 1],
    ]);
  });
});
