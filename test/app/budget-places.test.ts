/** A run's places in the store's messaging limit: taken in chunks before the contacts that need them, the store not asked again and again while it has no room. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { budgetPlaces, placesChunk } from '../../src/app/run/budget-places.js';
import { complianceContext, complianceLookups } from '../../src/app/protection/compliance.js';
import { createFileStore, type BudgetHolder } from '../../src/checkpoint/backends.js';
import type { Contact } from '../../src/contacts/index.js';
import { testContacts } from '../helpers/run.js';

const T0 = Date.UTC(2026, 2, 2, 15, 0, 0);
const job = { name: 'promo', limits: { daily_unique_recipients: 10, min_hours_between_messages: 24, max_reject_ratio: 0.2, max_failure_ratio: 0.5 }, require_opt_in: false, window: { safety_margin_minutes: 0 } } as const;
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** A holder over a store that has `room` places in all, counting the takes it is asked for. */
function countingHolder(room: { left: number }): BudgetHolder & { takes: number } {
  let held = 0;
  return {
    takes: 0,
    get held() {
      return held;
    },
    take(want) {
      this.takes += 1;
      const granted = Math.max(0, Math.min(want, room.left));
      room.left -= granted;
      held += granted;
      return Promise.resolve(granted);
    },
    renew() {
      return Promise.resolve();
    },
    release() {
      room.left += held;
      held = 0;
      return Promise.resolve();
    },
  };
}

async function lookups() {
  const dir = await mkdtemp(path.join(tmpdir(), 'outreach-places-'));
  dirs.push(dir);
  return complianceLookups(createFileStore(dir), job as unknown as Parameters<typeof complianceLookups>[1], 0);
}

describe('a run\'s places in the store\'s messaging limit', () => {
  it('takes about two seconds of sending at a time, and never fewer than the workers may decide at once', () => {
    expect(placesChunk({ perSecond: 80, workers: 4 })).toEqual({ chunk: 160, lowWater: 5 });
    expect(placesChunk({ perSecond: 1, workers: 4 })).toEqual({ chunk: 10, lowWater: 5 });
    expect(placesChunk({ perSecond: 5000, workers: 64 })).toEqual({ chunk: 1000, lowWater: 65 });
  });

  it('tops up only when the places not yet promised fall below the low-water mark', async () => {
    const c = await lookups();
    const holder = countingHolder({ left: 100 });
    const places = budgetPlaces(holder, c, 100, { perSecond: 10, workers: 2, refreshEveryMs: 0 });
    await places.beforeContact(T0);
    expect(holder.held).toBe(20);
    for (let i = 0; i < 17; i++) c.reservations.reserve(`+55119600000${String(i).padStart(2, '0')}`);
    await places.beforeContact(T0);
    expect(holder.takes).toBe(1);
    c.reservations.reserve('+5511960000099');
    await places.beforeContact(T0);
    expect(holder.takes).toBe(2);
    expect(holder.held - c.reservations.size).toBe(20);
  });

  it('promises each held place once: once every place held is promised, the next recipient outside its window has no room, though the limit has', async () => {
    const c = await lookups();
    const holder = countingHolder({ left: 3 });
    await holder.take(3, 10, T0);
    const ready = { ...c, holder };
    const [a, b, d, next] = testContacts(4) as [Contact, Contact, Contact, Contact];
    expect(complianceContext(ready, a, T0).budget?.room).toBe(3);
    // Three recipients decided outside their window, their first messages not in the ledger yet: each holds one place.
    for (const contact of [a, b, d]) ready.reservations.reserve(contact.phone);
    expect(complianceContext(ready, next, T0).budget).toMatchObject({ room: 0, counted: false });
    // The one promised keeps its own place.
    expect(complianceContext(ready, a, T0).budget).toMatchObject({ counted: true });
  });

  it('asks a store with no room again at most once per refresh interval, unless its own ledger frees a place', async () => {
    const c = await lookups();
    const old = { phone: '+5511960000001', at: T0 - 23 * 3_600_000, job: 'promo', outsideWindow: true, id: 'old' };
    const refused = { phone: '+5511960000002', at: T0, job: 'promo', outsideWindow: true, id: 'refused' };
    await c.ledger.record(old);
    await c.ledger.record(refused);
    const room = { left: 0 };
    const holder = countingHolder(room);
    const places = budgetPlaces(holder, c, 10, { perSecond: 10, workers: 2, refreshEveryMs: 3_600_000 });
    for (let i = 0; i < 50; i++) await places.beforeContact(T0);
    expect(holder.takes).toBe(1);
    // A first message of this store's ledger taken back: the room it sees grows, so it asks at once.
    await c.ledger.takeBack(refused);
    await places.beforeContact(T0);
    await places.beforeContact(T0);
    expect(holder.takes).toBe(2);
    // An hour later the old recipient has left the 24 hours: it asks again, and gets what the store has.
    room.left = 1;
    await places.beforeContact(T0 + 3_600_000 + 1);
    expect(holder.takes).toBe(3);
    expect(holder.held).toBe(1);
  });
});
