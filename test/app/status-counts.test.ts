import { afterEach, describe, expect, it } from 'vitest';
import { jobStatus } from '../../src/app/index.js';
import { digestStates } from '../../src/app/report/states-digest.js';
import { createFileStore, statesOf, type ContactStates, type StateStore } from '../../src/checkpoint/backends.js';
import { campaign, type Campaign } from '../helpers/campaign.js';
import { outcomeJournal } from '../helpers/outcome-journal.js';
import { cli } from '../helpers/in-process.js';
import { inbound } from '../checkpoint/helpers.js';

const AT = '2025-01-15T10:00:00.000Z';
const made: Campaign[] = [];
afterEach(async () => {
  for (const c of made.splice(0)) await c.cleanup();
});

/** A store whose job states refuse to be read one by one: a count must come from the counters. */
function countersOnly(store: StateStore): StateStore {
  return new Proxy(store, {
    get(target, key, receiver) {
      if (key !== 'readJob') return Reflect.get(target, key, receiver) as unknown;
      return async (job: string) => {
        const view = await target.readJob(job);
        if (!view) return view;
        const states = new Proxy(view.states, {
          get(s, k) {
            if (k === 'values' || k === 'entries' || k === Symbol.iterator || k === 'forEach') throw new Error(`status read every state (${String(k)})`);
            const v = Reflect.get(s, k, s) as unknown;
            return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(s) : v;
          },
        }) as ContactStates;
        return { ...view, states };
      };
    },
  });
}

describe('status of a big job', () => {
  it('counts from the counters kept with the snapshot, without reading each state, the same numbers as a full read (and status --json says them)', async () => {
    const c = await campaign({ rows: 4_400 });
    made.push(c);
    const store = createFileStore(c.stateDir);
    const all = outcomeJournal(c.phones, { ids: 'text' });
    const job = await store.openJob('cli-test', { pid: process.pid, startedAt: AT, command: 'run' });
    await Promise.all(all.slice(0, -200).map((e) => job.record(e)));
    await job.close();
    // A tail after the snapshot, and replies from two sent contacts and one failed.
    const again = await store.openJob('cli-test', { pid: process.pid, startedAt: AT, command: 'run' });
    for (const e of all.slice(-200)) await again.record(e);
    await again.record({ t: 'attempt', phone: c.phones[4]!, via: 'template', action: 'template', at: AT });
    await again.record({ t: 'sent', phone: c.phones[4]!, via: 'template', action: 'template', conversation_id: 'conv-4', client_id: 'client-4', message_id: 'm-4b', at: AT });
    await again.close();
    const log = await store.openEventsLog();
    for (const i of [0, 3, 4, 12]) await log.record(inbound(`in-${i}`, `client-${i}`, '2025-01-15T11:00:00.000Z', c.phones[i]));
    await log.close();

    const status = await jobStatus(c.jobFile, { store: countersOnly(store), clock: () => Date.parse(AT) });
    const view = await store.readJob('cli-test');
    const states = new Map(view?.states ?? []);
    const replies = await store.replies([...states].flatMap(([phone, s]) => (s.status === 'sent' ? [[phone, { sentAt: s.sentAt, clientId: s.clientId, conversationId: s.conversationId }] as const] : [])));
    // Every state read (`also` given), against the counters status sums.
    const full = digestStates(statesOf(states), { pending: 4_400 - states.size, replies }, () => undefined);
    expect(replies.size).toBe(3);
    expect(status.summary).toEqual(full.summary);
    expect(status.funnel).toEqual(full.funnel);
    expect(status.deferred).toEqual(full.deferred);
    expect(status.summary.byStatus).toMatchObject({ sent: 4_400 / 8 * 4 + 1, failed: 4_400 / 8 - 1 });
    expect(status.replies.count).toBe(3);

    const json = JSON.parse((await cli(['status', c.jobFile, '--state-dir', c.stateDir, '--json'])).stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ total: full.summary.total, byStatus: full.summary.byStatus, byAction: full.summary.byAction });
  });
});
