/**
 * The storage port's contract: what every backend must do, written against the port's interfaces
 * only (`StateStore`, `JobStore`, and the port's own types) and run once per backend. A behaviour
 * stated here is one the backends agree on; a second store on the same place stands for a second
 * process (on this host or another).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ContactListing, HELD, rowKey, statesOf, tallyKey, type CheckpointEvent, type ContactState, type ContactStates, type JobStore, type RecordedEvent, type StateStore } from '../../../src/checkpoint/index.js';
import { AT, attempt, failed, inbound, phoneOf, sent } from '../helpers.js';
import { backends, type OpenedBackend } from './backends.js';
import { waitFor } from '../../helpers/wait.js';

const header: CheckpointEvent = { t: 'header', v: 1, job: 'promo', fingerprint: 'f1', content: {}, at: AT };
const ownerA = { host: 'runner-a', pid: process.pid, startedAt: AT, command: 'run' };
const ownerB = { host: 'runner-b', pid: 4242, startedAt: AT, command: 'resume' };
const HOUR = 3_600_000;

/** The pid of a process of this host that has ended. */
async function deadPid(): Promise<number> {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid ?? 0;
}


describe.each(backends)('the storage port, on the $name backend', (backend) => {
  let place: OpenedBackend;
  let store: StateStore;
  beforeEach(async () => {
    place = await backend.open();
    store = place.store;
  });
  afterEach(async () => {
    await place.cleanup();
  });

  describe('one owner per job', () => {
    it('refuses a second owner while the first holds the job, naming its host and pid, and opens a closed job again', async () => {
      const job = await store.openJob('promo', ownerA);
      const other = await place.another();
      const refused = await other.openJob('promo', ownerB).catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(Error);
      expect(refused).toMatchObject({ userError: true });
      expect((refused as Error).message).toMatch(new RegExp(`pid ${process.pid} on host runner-a`));
      await job.close();
      const again = await other.openJob('promo', ownerB);
      await again.close();
    });

    it('says who runs a job (host, pid, since, command) while it is held, and nobody once it is closed', async () => {
      expect(await store.runningBy('promo')).toBeUndefined();
      const job = await store.openJob('promo', ownerA);
      const other = await place.another();
      expect(await other.runningBy('promo')).toEqual({ host: 'runner-a', pid: process.pid, since: AT, command: 'run' });
      await job.close();
      expect(await other.runningBy('promo')).toBeUndefined();
    });

    it('records an owner that names no host with this machine\'s name', async () => {
      const { hostname } = await import('node:os');
      const job = await store.openJob('promo', { pid: process.pid, startedAt: AT, command: 'run' });
      expect((await (await place.another()).runningBy('promo'))?.host).toBe(hostname());
      await job.close();
    });

    it('lets the next owner take a job whose owner is gone, saying from whom, and keeps what it recorded', async () => {
      const { hostname } = await import('node:os');
      const gone = { host: hostname(), pid: await deadPid(), startedAt: AT, command: 'run' };
      const lapsed = await store.openJob('promo', gone);
      await lapsed.record(header);
      await lapsed.record(sent(phoneOf(1), 1));
      await store.close(); // its process ends without closing the job: nothing keeps its hold
      const other = await place.another();
      let job: JobStore | undefined;
      await waitFor(async () => (job = await other.openJob('promo', ownerB).catch(() => undefined)) !== undefined);
      expect(job?.tookOverFrom).toEqual({ host: gone.host, pid: gone.pid });
      expect(job?.header).toEqual(header);
      expect(job?.states.get(phoneOf(1))?.status).toBe('sent');
      await job?.close();
      await lapsed.close().catch(() => undefined);
    });

    it('lets close be called twice', async () => {
      const job = await store.openJob('promo', ownerA);
      await job.close();
      await job.close();
      expect(await store.runningBy('promo')).toBeUndefined();
    });
  });

  describe('the journal', () => {
    it('starts a new job with no header, no states, nothing to tell, and the files the store names for it', async () => {
      const job = await store.openJob('promo', ownerA);
      expect(job.header).toBeUndefined();
      expect(job.states.size).toBe(0);
      expect(job.notices).toEqual([]);
      expect(job.files).toEqual(store.jobFiles('promo'));
      await job.close();
    });

    it('keeps what was recorded for another store on the same place, as a second process reads it', async () => {
      const job = await store.openJob('promo', ownerA);
      await job.record(header);
      await job.record(attempt(phoneOf(1)));
      await job.record(sent(phoneOf(1), 1));
      expect(job.header).toEqual(header);
      expect(job.states.get(phoneOf(1))?.status).toBe('sent');
      await job.close();

      const view = await (await place.another()).readJob('promo');
      expect(view?.header).toEqual(header);
      expect(view?.states.get(phoneOf(1))).toMatchObject({ status: 'sent', conversationId: 'conv-1', clientId: 'client-1' });
      expect(view?.notices).toEqual([]);
    });

    it('folds the states as replay says: an attempt without outcome is in doubt on reopening; sent, failed, deferred and skipped stay', async () => {
      const job = await store.openJob('promo', ownerA);
      await job.record(header);
      await job.record(attempt(phoneOf(1)));
      await job.record(attempt(phoneOf(2)));
      await job.record(sent(phoneOf(2), 2));
      await job.record(attempt(phoneOf(3)));
      await job.record(failed(phoneOf(3), { status: 502, retryable: true, client_id: 'c3' }));
      await job.record({ t: 'deferred', phone: phoneOf(4), reason: 'quiet_hours', not_before: '2025-01-02T08:00:00.000Z', at: AT });
      await job.record({ t: 'skipped', phone: phoneOf(5), reason: 'suppressed', at: AT });
      const live = new Map(job.states);
      await job.close();

      const again = await (await place.another()).openJob('promo', ownerB);
      expect(again.states.get(phoneOf(1))?.status).toBe('in_doubt');
      expect(again.states.get(phoneOf(2))).toMatchObject({ status: 'sent', conversationId: 'conv-2' });
      expect(again.states.get(phoneOf(3))).toMatchObject({ status: 'failed', retryable: true, httpStatus: 502 });
      expect(again.states.get(phoneOf(4))).toMatchObject({ status: 'deferred', reason: 'quiet_hours', notBefore: '2025-01-02T08:00:00.000Z' });
      expect(again.states.get(phoneOf(5))).toMatchObject({ status: 'skipped', reason: 'suppressed' });
      expect(new Map(again.states)).toEqual(live);
      await again.close();
    });

    it('reads a job without taking it, while its owner holds it; a job never run is not there', async () => {
      const other = await place.another();
      expect(await other.readJob('promo')).toBeUndefined();
      const job = await store.openJob('promo', ownerA);
      await job.record(sent(phoneOf(3), 3));
      expect((await other.readJob('promo'))?.states.get(phoneOf(3))?.status).toBe('sent');
      expect((await other.runningBy('promo'))?.pid).toBe(process.pid);
      await job.close();
    });

    it('gives every event of one contact, oldest first, and none of another', async () => {
      const job = await store.openJob('promo', ownerA);
      await job.record(header);
      await job.record(attempt(phoneOf(1)));
      await job.record(attempt(phoneOf(2)));
      await job.record(failed(phoneOf(1), { status: 429, retryable: true }));
      await job.record(attempt(phoneOf(1), { via: 'template' }));
      await job.record(sent(phoneOf(1), 1, { via: 'template' }));
      await job.close();
      const events = await (await place.another()).contactEvents('promo', phoneOf(1));
      expect(events.map((e) => e.t)).toEqual(['attempt', 'failed', 'attempt', 'sent']);
      expect(events.every((e) => e.phone === phoneOf(1))).toBe(true);
    });

    it('keeps jobs apart', async () => {
      const a = await store.openJob('promo', ownerA);
      const b = await store.openJob('winter', ownerA);
      await a.record(sent(phoneOf(1), 1));
      await b.record(failed(phoneOf(1)));
      await a.close();
      await b.close();
      expect((await store.readJob('promo'))?.states.get(phoneOf(1))?.status).toBe('sent');
      expect((await store.readJob('winter'))?.states.get(phoneOf(1))?.status).toBe('failed');
    });
  });

  describe('the plan\'s rejects and the listing', () => {
    it('remembers the rows a plan rejected, for another store too', async () => {
      expect(await store.planRejects('promo')).toEqual(new Set());
      await store.savePlanRejects('promo', [{ file: 'contacts.csv', line: 4 }, { file: 'contacts.csv', line: 9 }]);
      const rows = await (await place.another()).planRejects('promo');
      expect(rows).toEqual(new Set([rowKey({ file: 'contacts.csv', line: 4 }), rowKey({ file: 'contacts.csv', line: 9 })]));
      await store.savePlanRejects('promo', []);
      expect(await store.planRejects('promo')).toEqual(new Set());
    });

    it('keeps a job\'s notes by key, for another store too, the last saved winning', async () => {
      expect(await store.jobNote('promo', 'tracked')).toBeUndefined();
      await store.saveJobNote('promo', 'tracked', { at: AT });
      await store.saveJobNote('promo', 'experiment', { winner: 'b', p: 0.01 });
      await store.saveJobNote('promo', 'tracked', { at: '2026-11-27T10:00:00.000Z' });
      const other = await place.another();
      expect(await other.jobNote('promo', 'tracked')).toEqual({ at: '2026-11-27T10:00:00.000Z' });
      expect(await other.jobNote('promo', 'experiment')).toEqual({ winner: 'b', p: 0.01 });
      expect(await other.jobNote('winter', 'tracked')).toBeUndefined();
    });

    it('gives a listing back only for the source it was saved with', async () => {
      const listing = new ContactListing();
      listing.add({ phone: phoneOf(1), line: 2, file: 'contacts.csv', name: 'Ana' });
      listing.add({ phone: phoneOf(2), line: 3, file: 'contacts.csv' });
      await store.saveListing('promo', 'source-1', listing);
      const other = await place.another();
      const kept = await other.listing('promo', 'source-1');
      expect(kept && [...kept]).toEqual([...listing]);
      expect(await other.listing('promo', 'source-2')).toBeUndefined();
      expect(await other.listing('winter', 'source-1')).toBeUndefined();
      // Read for its phones only (status counting pending contacts): the same listing, for the same source only.
      const phones = await other.listing('promo', 'source-1', { phonesOnly: true });
      expect(phones && [...phones.phoneColumn()]).toEqual([...listing.phoneColumn()]);
      expect(phones && [...phones]).toEqual([...listing]);
      expect(await other.listing('promo', 'source-2', { phonesOnly: true })).toBeUndefined();
    });

    it('gives the last listing back whatever its source, naming the source and the reads it was saved with', async () => {
      expect(await store.lastListing('promo')).toBeUndefined();
      const reads = { files: [{ file: 'contacts.csv', size: 120, mtimeMs: 1_764_000_000_123.5, sha256: 'ab'.repeat(32), lines: 4, endsAtBreak: true }] };
      const listing = new ContactListing();
      listing.add({ phone: phoneOf(1), line: 2, file: 'contacts.csv', name: 'Ana' });
      listing.reads = reads;
      await store.saveListing('promo', 'source-1', listing);
      const other = await place.another();
      const kept = await other.lastListing('promo');
      expect(kept && [...kept]).toEqual([...listing]);
      expect(kept?.source).toBe('source-1');
      expect(kept?.reads).toEqual(reads);
      expect((await other.listing('promo', 'source-1'))?.reads).toEqual(reads);
      expect(await other.lastListing('winter')).toBeUndefined();
    });
  });

  describe('the counts a job keeps', () => {
    /** Each tally's count as a full read of the states finds it. */
    const recount = (states: ContactStates) => {
      const counts = new Map<string, number>();
      for (const s of states.values()) counts.set(tallyKey(s), (counts.get(tallyKey(s)) ?? 0) + 1);
      return counts;
    };
    const kept = (states: ContactStates) => new Map(Array.from(states.tallies(), (t) => [tallyKey(t.state), t.count]));
    /** The event of contact `i` after its attempt: most sent, some failed (two classes), deferred, skipped, or no outcome. */
    const outcome = (i: number): CheckpointEvent | undefined => {
      const phone = phoneOf(i);
      switch (i % 10) {
        case 0:
          return failed(phone, { status: 502, retryable: true, error: '502: bad gateway' });
        case 1:
          return failed(phone, { status: 400, error: '(#131026) undeliverable', error_class: 'undeliverable' });
        case 2:
          return { t: 'deferred', phone, reason: 'quiet_hours', not_before: `2025-01-02T0${i % 7}:00:00.000Z`, zone: 'America/Sao_Paulo', at: AT };
        case 3:
          return { t: 'skipped', phone, reason: 'suppressed', at: AT };
        case 4:
          return undefined;
        default:
          return sent(phone, i);
      }
    };

    it('keeps counters with its snapshot that equal a full recount after the journal\'s tail is folded onto them', async () => {
      const contacts = 4_000;
      const first = await store.openJob('promo', ownerA);
      await first.record(header);
      await Promise.all(Array.from({ length: contacts }, (_, i) => first.record(attempt(phoneOf(i)))));
      await Promise.all(Array.from({ length: contacts }, (_, i) => outcome(i)).flatMap((e) => (e ? [first.record(e)] : [])));
      await first.close();

      // The tail: contacts change status, tracking and after-send steps move, new contacts come.
      const second = await (await place.another()).openJob('promo', ownerB);
      expect(kept(second.states)).toEqual(recount(second.states));
      for (let i = 0; i < 60; i++) {
        const phone = phoneOf(i);
        if (i % 10 === 0) {
          await second.record(attempt(phone, { via: 'template' }));
          await second.record(sent(phone, i));
        } else if (i % 10 === 5) await second.record({ t: 'delivery', phone, status: i % 20 === 5 ? 'read' : 'failed', ...(i % 20 === 15 && { failure_code: 131026, failure_reason: 'undeliverable' }), at: AT });
        else if (i % 10 === 6) await second.record({ t: 'followup', phone, step: 'tag:vip', ok: false, error: '404: tag not found', at: AT });
        else if (i % 10 === 2) await second.record({ t: 'skipped', phone, reason: 'opted_out', at: AT });
      }
      for (let i = contacts; i < contacts + 25; i++) await second.record(attempt(phoneOf(i)));
      await second.record(sent(phoneOf(contacts), contacts));
      expect(kept(second.states)).toEqual(recount(second.states));
      await second.close();

      const view = await (await place.another()).readJob('promo');
      const states = view?.states as ContactStates;
      expect(kept(states)).toEqual(recount(states));
      expect([...kept(states).values()].reduce((a, b) => a + b, 0)).toBe(contacts + 25);
    });
  });

  describe("the reads a job's states answer without a state per contact (the port's capabilities)", () => {
    /** Contact `i`'s events: sent (some read, some with ids that are no plain numbers), failed, deferred, skipped, in doubt. */
    const eventsOf = (i: number): CheckpointEvent[] => {
      const phone = phoneOf(i);
      const tried = attempt(phone, { via: i % 2 === 0 ? 'start' : 'template' });
      switch (i % 8) {
        case 0:
          return [tried, failed(phone, { status: 502, retryable: true, error: '502: bad gateway' })];
        case 1:
          return [{ t: 'deferred', phone, reason: 'quiet_hours', not_before: `2025-01-02T0${i % 7}:00:00.000Z`, zone: 'America/Sao_Paulo', at: AT }];
        case 2:
          return [{ t: 'skipped', phone, reason: 'suppressed', at: AT }];
        case 3:
          return [attempt(phone, { at: `2025-01-01T00:0${i % 10}:00.000Z` })];
        case 4:
          return [tried, sent(phone, i), { t: 'delivery', phone, status: 'read', delivered_at: AT, read_at: `2025-01-01T0${i % 10}:30:00.000Z`, at: AT }];
        case 5:
          return [tried, sent(phone, i, { at: `2025-01-01T01:${String(i % 60).padStart(2, '0')}:00.000Z` })];
        default:
          return [tried, sent(phone, i, { conversation_id: String(7_000 + i), client_id: String(8_000 + i), message_id: String(9_000 + i) })];
      }
    };
    const contacts = 240;
    /** The list: contacts 0 … 299 (the last 60 never reached) and a phone kept whole (not E.164). */
    const listing = (): ContactListing => {
      const out = new ContactListing();
      for (let i = 0; i < contacts + 60; i++) out.add({ phone: phoneOf(i), line: i + 2, file: 'contacts.csv' });
      out.add({ phone: 'not-a-phone', line: contacts + 62, file: 'contacts.csv' });
      return out;
    };
    /** The values a row source gives of a state, read from the state itself (a time as epoch ms, an id as its number). */
    const ownOf = (s: ContactState, held: number): Record<string, number> => {
      const f = s as unknown as Record<string, unknown>;
      const delivery = (f.delivery ?? {}) as Record<string, unknown>;
      const fields: Array<[number, string, unknown, (v: unknown) => number]> = [
        [HELD.conversationId, 'conversationId', f.conversationId, Number],
        [HELD.clientId, 'clientId', f.clientId, Number],
        [HELD.messageId, 'messageId', f.messageId, Number],
        [HELD.attempts, 'attempts', f.attempts, Number],
        [HELD.line, 'line', f.line, Number],
        [HELD.httpStatus, 'httpStatus', f.httpStatus, Number],
        [HELD.updatedAt, 'updatedAt', f.updatedAt, (v) => Date.parse(String(v))],
        [HELD.sentAt, 'sentAt', f.sentAt, (v) => Date.parse(String(v))],
        [HELD.notBefore, 'notBefore', f.notBefore, (v) => Date.parse(String(v))],
        [HELD.deliveredAt, 'deliveredAt', delivery.deliveredAt, (v) => Date.parse(String(v))],
        [HELD.readAt, 'readAt', delivery.readAt, (v) => Date.parse(String(v))],
      ];
      return Object.fromEntries(fields.filter(([bit]) => (held & bit) !== 0).map(([, name, value, read]) => [name, read(value)]));
    };
    /** A state without its phone, the values `held` names and the fields `unread` names: what its shape stands for. */
    const shapeText = (s: ContactState, held: number, unread: readonly string[]): string => {
      const f = { ...(s as unknown as Record<string, unknown>) };
      delete f.phone;
      for (const name of [...Object.keys(ownOf(s, held)), ...unread]) delete f[name];
      if (typeof f.delivery === 'object' && f.delivery !== null) {
        const d = { ...(f.delivery as Record<string, unknown>) };
        if (held & HELD.deliveredAt) delete d.deliveredAt;
        if (held & HELD.readAt) delete d.readAt;
        f.delivery = d;
      }
      return JSON.stringify(f);
    };
    /** Each capability's answer against the general one, read from the states as a plain map. */
    const expectSameAsMap = (states: ContactStates) => {
      const general = statesOf(new Map(states));
      const list = listing();
      const phones = [...Array.from({ length: contacts + 60 }, (_, i) => phoneOf(i)), 'not-a-phone', '+1'];
      expect(phones.map((p) => states.statusOf(p))).toEqual(phones.map((p) => general.statusOf(p)));
      const listed = states.listedStatus(list);
      const listedInGeneral = general.listedStatus(list);
      expect(Array.from({ length: list.size }, (_, i) => listed(i))).toEqual(Array.from({ length: list.size }, (_, i) => listedInGeneral(i)));
      expect(states.countUnseen(list)).toBe(61);
      expect(states.countUnseen(list)).toBe(general.countUnseen(list));
      expect([...states.unseenAt(list)]).toEqual([...general.unseenAt(list)]);
      expect([...states.sentEntries()]).toEqual([...general.sentEntries()]);
      const counts = (tallies: Iterable<{ state: ContactState; count: number }>) => new Map(Array.from(tallies, (t) => [tallyKey(t.state), t.count]));
      expect(counts(states.tallies())).toEqual(counts(general.tallies()));
      // The in-doubt tallies hold no attempt time (one tally, not one per time) ...
      expect([...states.tallies()].some((t) => 'attemptAt' in t.state)).toBe(false);
      // ... but come in two by a run's start when asked: each part's states attempted before it, or not, as their own times say.
      const before = (s: ContactState, since: number) => ((s as { attemptAt?: string }).attemptAt !== undefined && Date.parse((s as { attemptAt: string }).attemptAt) < since ? ' before' : '');
      for (const since of [Date.parse('2025-01-01T00:05:00.000Z'), Date.parse('2025-01-01T00:00:00.000Z'), Date.parse('2026-01-01T00:00:00.000Z'), NaN]) {
        const parts = new Map<string, number>();
        for (const { state, count } of states.tallies({ attemptsSince: since })) parts.set(tallyKey(state) + before(state, since), (parts.get(tallyKey(state) + before(state, since)) ?? 0) + count);
        const each = new Map<string, number>();
        for (const s of general.values()) each.set(tallyKey(s) + before(s, since), (each.get(tallyKey(s) + before(s, since)) ?? 0) + 1);
        expect(parts).toEqual(each);
      }
      // The report-row source: every state once, in the states' order; each row's own values as its state holds them; one shape, one state but for those.
      const unread = ['attemptAt', 'via'];
      const rows = states.reportRows({ unread });
      const seen: ContactState[] = [];
      const shapes = new Map<number, string>();
      while (rows.next()) {
        const s = rows.state();
        seen.push(s);
        if (rows.shape < 0) continue;
        const held = rows.held;
        expect(rows.phone).toBe(Number(s.phone.slice(1)));
        const own = ownOf(s, held);
        for (const [name, value] of Object.entries(own)) expect((rows as unknown as Record<string, number>)[name], `${s.phone}'s ${name}`).toBe(value);
        const text = shapeText(s, held, unread);
        expect(shapes.get(rows.shape) ?? text, `shape ${rows.shape}`).toBe(text);
        shapes.set(rows.shape, text);
      }
      expect(seen).toEqual([...states.values()]);
    };

    it('answers each read as a full read of its states does: open for a run, read back from another store, and with a tail after its snapshot', async () => {
      const first = await store.openJob('promo', ownerA);
      await first.record(header);
      for (let i = 0; i < contacts; i++) for (const e of eventsOf(i)) await first.record(e);
      expectSameAsMap(first.states);
      await first.close();

      const view = await (await place.another()).readJob('promo');
      const read = view?.states as ContactStates;
      expect(read.size).toBe(contacts);
      expectSameAsMap(read);

      const second = await (await place.another()).openJob('promo', ownerB);
      for (let i = 0; i < 20; i++) await second.record(sent(phoneOf(i * 8 + 3), 5_000 + i));
      await second.record({ t: 'followup', phone: phoneOf(4), step: 'tag:vip', ok: false, error: '404: tag not found', at: AT });
      await second.close();
      const after = await (await place.another()).readJob('promo');
      expectSameAsMap(after?.states as ContactStates);
    });
  });

  describe('the messaging-limit budget', () => {
    const at = Date.parse(AT);
    const outside = (n: number, job = 'promo') => ({ phone: phoneOf(n), at, job, outsideWindow: true, id: `budget-${job}-${n}` });

    it('never grants two holders on two stores more than the limit between them, however their takes interleave', async () => {
      const other = await place.another();
      const [a, b] = await Promise.all([store.budgetHolder(), other.budgetHolder()]);
      const takes = Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? a : b).take(3, 20, at));
      const granted = await Promise.all(takes);
      expect(granted.reduce((n, g) => n + g, 0)).toBe(20);
      expect(a.held + b.held).toBe(20);
      expect(await a.take(1, 20, at)).toBe(0);
      expect(await b.take(5, 20, at)).toBe(0);
    });

    it('never lets two stores record more recipients than the limit, however their takes interleave with uses whose writes are still going on (many rounds)', async () => {
      const LIMIT = 12;
      /** One process's run: records a first message on each place it holds without waiting for the write, and takes more when none is left. */
      const spend = async (on: StateStore, prefix: string): Promise<void> => {
        const ledger = await on.ledger();
        const holder = await on.budgetHolder();
        const writes: Array<Promise<void>> = [];
        let n = 0;
        let dry = 0;
        while (dry < 3) {
          if (holder.held > 0) {
            writes.push(ledger.record({ phone: `${prefix}${String(n).padStart(4, '0')}`, at, job: prefix, outsideWindow: true, id: `${prefix}-${n}` }, holder));
            n += 1;
            // Another contact is decided before this write is on disk or committed.
            await new Promise((resolve) => setImmediate(resolve));
          } else if ((await holder.take(2, LIMIT, at)) === 0) {
            dry += 1;
            await Promise.all(writes.splice(0));
          }
        }
        await Promise.all(writes);
        await holder.release();
      };
      for (let round = 0; round < 12; round++) {
        const here = (await place.another()).account(round + 1);
        const there = (await place.another()).account(round + 1);
        await Promise.all([spend(here, `+5511${round}1`), spend(there, `+5511${round}2`)]);
        const count = await (await (await place.another()).account(round + 1).ledger());
        expect(count.uniqueOutsideWindowSince(at - 24 * HOUR), `round ${round}`).toBeLessThanOrEqual(LIMIT);
      }
    });

    it('counts the ledger: a holder is granted only what the recipients messaged in the last 24 hours leave', async () => {
      const ledger = await store.ledger();
      await ledger.record(outside(1));
      await ledger.record(outside(2));
      await ledger.record({ phone: phoneOf(3), at, job: 'promo', outsideWindow: false, id: 'inside-3' });
      const holder = await (await place.another()).budgetHolder();
      expect(await holder.take(10, 5, at + HOUR)).toBe(3);
      await holder.release();
      // A day later the two have left the rolling 24 hours.
      const later = await store.budgetHolder();
      expect(await later.take(10, 5, at + 25 * HOUR)).toBe(5);
      expect(later.held).toBe(5);
    });

    it('moves a place from the hold into the ledger when a first message outside the window is recorded from the holder', async () => {
      const holder = await store.budgetHolder();
      expect(await holder.take(4, 5, at)).toBe(4);
      const ledger = await store.ledger();
      await ledger.record(outside(1), holder);
      expect(holder.held).toBe(3);
      const theirs = await place.another();
      const seen = await theirs.ledger();
      await seen.refresh();
      expect(seen.uniqueOutsideWindowSince(at - 24 * HOUR)).toBe(1);
      // The store counts 1 in the ledger and 3 held: one place is left, not zero, not two.
      const other = await theirs.budgetHolder();
      expect(await other.take(5, 5, at)).toBe(1);
    });

    it('gives the unused places back on release, once however often it is called; a holder may take again after', async () => {
      const holder = await store.budgetHolder();
      expect(await holder.take(6, 10, at)).toBe(6);
      const other = await (await place.another()).budgetHolder();
      expect(await other.take(10, 10, at)).toBe(4);
      await holder.release();
      await holder.release();
      expect(holder.held).toBe(0);
      expect(await other.take(10, 10, at)).toBe(6);
      expect(other.held).toBe(10);
      await other.release();
      expect(await holder.take(3, 10, at)).toBe(3);
    });
  });

  describe('the registry of senders that share a number\'s rate', () => {
    const claim = (on: StateStore, sender: string, want: number, perSecond = 20, channel = 10) => on.claimRate({ channel, sender, want, perSecond, now: Date.now() });

    it('grants a lone sender the whole rate and a second one only what the first leaves, until the first lowers its claim', async () => {
      const other = await place.another();
      expect(await claim(store, 'a', 20)).toEqual({ granted: 20, senders: 1, perSecond: 20 });
      expect(await claim(other, 'b', 10)).toEqual({ granted: 0, senders: 2, perSecond: 20 });
      expect(await claim(store, 'a', 10)).toEqual({ granted: 10, senders: 2, perSecond: 20 });
      expect(await claim(other, 'b', 15)).toEqual({ granted: 10, senders: 2, perSecond: 20 });
      // A claim kept or lowered is never cut: b keeps its 10 while a asks for more than is left.
      expect((await claim(store, 'a', 20)).granted).toBe(10);
      expect((await claim(other, 'b', 4)).granted).toBe(4);
      expect((await claim(store, 'a', 20)).granted).toBe(16);
    });

    it('never grants the senders of two stores more than the rate between them, however their claims interleave', async () => {
      const other = await place.another();
      const senders = Array.from({ length: 8 }, (_, i) => ({ on: i % 2 === 0 ? store : other, id: `s${i}` }));
      const first = await Promise.all(senders.map((s) => claim(s.on, s.id, 5)));
      expect(first.reduce((n, r) => n + r.granted, 0)).toBe(20);
      const again = await Promise.all(senders.map((s) => claim(s.on, s.id, 20)));
      expect(again.reduce((n, r) => n + r.granted, 0)).toBe(20);
      expect(again.every((r) => r.senders === 8)).toBe(true);
    });

    it('gives a leaving sender\'s share back to the others once its claim lapses', async () => {
      const other = await place.another();
      expect((await claim(store, 'a', 20)).granted).toBe(20);
      expect((await claim(other, 'b', 20)).granted).toBe(0);
      await store.leaveRate(10, 'a', Date.now());
      // Right after leaving the claim still holds (its last sends may still be inside a second), then it lapses.
      expect((await claim(other, 'b', 20)).granted).toBe(0);
      await waitFor(async () => (await claim(other, 'b', 20)).granted === 20, 10_000, 50);
      expect(await claim(other, 'b', 20)).toEqual({ granted: 20, senders: 1, perSecond: 20 });
    });

    it("gives a killed sender's share back soon, as a leaving one's, while a live one that stopped renewing keeps its own until it lapses", async () => {
      const dead = await deadPid();
      const other = await place.another();
      // Two senders of this host claim a number each at once; the process of the first is gone, the second is this one.
      expect((await store.claimRate({ channel: 10, sender: 'killed', want: 20, perSecond: 20, now: Date.now(), pid: dead })).granted).toBe(20);
      expect((await store.claimRate({ channel: 11, sender: 'still', want: 20, perSecond: 20, now: Date.now() })).granted).toBe(20);
      await waitFor(async () => (await claim(other, 'b', 20, 20, 10)).granted === 20, 20_000, 50);
      expect(await claim(other, 'c', 20, 20, 11)).toEqual({ granted: 0, senders: 2, perSecond: 20 });
    });

    it('shares the lowest rate the live senders\' jobs give the number, and keeps each number apart', async () => {
      const other = await place.another();
      expect((await claim(store, 'a', 20, 20)).perSecond).toBe(20);
      expect(await claim(other, 'b', 10, 8)).toEqual({ granted: 0, senders: 2, perSecond: 8 });
      expect((await claim(store, 'a', 20, 20)).perSecond).toBe(8);
      expect(await claim(other, 'b', 20, 20, 11)).toEqual({ granted: 20, senders: 1, perSecond: 20 });
    });
  });

  describe('the store-wide lists', () => {
    it('shares the suppression list between stores: added, seen by refresh, removed', async () => {
      const other = await place.another();
      const seen = await other.suppressions();
      expect(seen.size).toBe(0);
      const result = await store.suppress([{ phone: phoneOf(1), reason: 'asked', source: 'manual', at: AT }]);
      expect(result.added.map((e) => e.phone)).toEqual([phoneOf(1)]);
      expect((await store.suppress([{ phone: phoneOf(1), reason: 'again', source: 'manual' }])).already.map((e) => e.phone)).toEqual([phoneOf(1)]);
      await seen.refresh();
      expect(seen.get(phoneOf(1))).toEqual({ phone: phoneOf(1), reason: 'asked', source: 'manual', at: AT });

      expect(await other.unsuppress([phoneOf(1)], { onlySource: 'reply_keyword' })).toEqual([]);
      expect(await other.unsuppress([phoneOf(1), phoneOf(2)])).toEqual([phoneOf(1)]);
      const mine = await store.suppressions();
      expect(mine.get(phoneOf(1))).toBeUndefined();
      await seen.refresh();
      expect(seen.size).toBe(0);
    });

    it('keeps the number of a pool a first message went from: another store reads the latest one not taken back', async () => {
      const at = Date.parse(AT);
      const mine = await store.ledger();
      await mine.record({ phone: phoneOf(1), at, job: 'pool-a', outsideWindow: true, id: 'n-1', channelId: 14 });
      await mine.record({ phone: phoneOf(1), at: at + 1, job: 'pool-b', outsideWindow: true, id: 'n-2', channelId: 11 });
      await mine.record({ phone: phoneOf(2), at, job: 'single', outsideWindow: true, id: 'n-3' });
      const theirs = await (await place.another()).ledger();
      expect(theirs.lastChannelOf(phoneOf(1))).toBe(11);
      expect(theirs.lastChannelOf(phoneOf(2))).toBeUndefined();
      await mine.takeBack({ phone: phoneOf(1), at: at + 1, job: 'pool-b', outsideWindow: true, id: 'n-2' });
      const later = await (await place.another()).ledger();
      expect(later.lastChannelOf(phoneOf(1))).toBe(14);
    });

    it('counts the rolling window from its recent read as from the whole ledger: entries before and after its start, out of order, taken back', async () => {
      const at = Date.parse(AT);
      const since = at - 24 * HOUR;
      const mine = await store.ledger();
      // Around the window's start (some written after later ones), inside it, and older; one phone twice.
      const times = [since - 2 * HOUR, since + 1, since - 1, since, at - HOUR, since + 2, at, since - 26 * HOUR, since + HOUR];
      const entries = times.map((t, i) => ({ phone: phoneOf(i % 7), at: t, job: i % 2 === 0 ? 'promo' : 'winter', outsideWindow: i !== 4, id: `recent-${i}` }));
      for (const e of entries) await mine.record(e);
      await mine.takeBack(entries[1] as (typeof entries)[number]);
      await mine.takeBack(entries[0] as (typeof entries)[number]);
      const other = await place.another();
      const whole = await other.ledger();
      await whole.refresh();
      const recent = (await other.recentLedger?.(since)) ?? whole;
      for (const from of [since, since + 1, since + 2, at - HOUR, at]) {
        expect(recent.uniqueOutsideWindowSince(from), `since ${from - since}`).toBe(whole.uniqueOutsideWindowSince(from));
        for (let n = 0; n < 5; n++) expect(recent.nthOutsideWindowSince(from, n)).toBe(whole.nthOutsideWindowSince(from, n));
      }
      expect(recent.uniqueOutsideWindowSince(since)).toBe(3);
    });

    it('shares the ledger between stores: a first message counts for the messaging limit and the last message, a take-back undoes it', async () => {
      const at = Date.parse(AT);
      const mine = await store.ledger();
      const theirs = await (await place.another()).ledger();
      const entry = { phone: phoneOf(1), at, job: 'promo', outsideWindow: true, id: 'entry-1' };
      await mine.record(entry);
      await mine.record({ phone: phoneOf(2), at: at + 1, job: 'winter', outsideWindow: false, id: 'entry-2' });
      await theirs.refresh();
      expect(theirs.uniqueOutsideWindowSince(at - 24 * HOUR)).toBe(1);
      expect(theirs.lastOutsideWindowAt(phoneOf(1))).toBe(at);
      expect(theirs.lastMessagedAt(phoneOf(1))).toBe(at);
      expect(theirs.lastMessagedAt(phoneOf(1), { exceptJob: 'promo' })).toBeUndefined();
      expect(theirs.lastMessagedAt(phoneOf(2))).toBe(at + 1);
      expect(theirs.messagesSince(phoneOf(1), at - HOUR).map((m) => m.job)).toEqual(['promo']);

      await mine.takeBack(entry);
      await theirs.refresh();
      expect(theirs.uniqueOutsideWindowSince(at - 24 * HOUR)).toBe(0);
      expect(theirs.lastMessagedAt(phoneOf(1))).toBeUndefined();
      const fresh = await (await place.another()).ledger();
      expect(fresh.lastMessagedAt(phoneOf(1))).toBeUndefined();
      expect(fresh.lastMessagedAt(phoneOf(2))).toBe(at + 1);
    });

    it('keeps the reply windows for another store: the latest inbound time per phone, never moving back', async () => {
      const at = Date.parse(AT);
      const windows = await store.openWindowStore();
      windows.noteInbound({ clientId: 'c1', phone: phoneOf(1), at });
      windows.noteInbound({ clientId: 'c1', phone: phoneOf(1), at: at - HOUR });
      windows.noteInbound({ clientId: 'c2', at: at + HOUR });
      windows.linkPhone('c2', phoneOf(2));
      await windows.flush();
      const other = await place.another();
      const lookup = await other.windows();
      expect(lookup.lastInboundAt(phoneOf(1))).toBe(at);
      expect(lookup.lastInboundAt(phoneOf(2))).toBe(at + HOUR);
      expect(lookup.lastInboundAt(phoneOf(3))).toBeUndefined();
      const theirs = await other.openWindowStore();
      expect(theirs.phoneOf('c2')).toBe(phoneOf(2));
      expect(theirs.lastInboundByClient('c1')).toBe(at);
    });

    it('keeps with a phone\'s window the number its last reply came to, for another store; a later reply to an unknown number forgets it', async () => {
      const at = Date.parse(AT);
      const windows = await store.openWindowStore();
      windows.noteInbound({ clientId: 'c1', phone: phoneOf(1), at, channelId: 11 });
      windows.noteInbound({ clientId: 'c1', phone: phoneOf(1), at: at - HOUR, channelId: 10 });
      windows.noteInbound({ clientId: 'c2', at: at + HOUR, channelId: 14 });
      windows.linkPhone('c2', phoneOf(2));
      windows.noteInbound({ clientId: 'c3', phone: phoneOf(3), at, channelId: 10 });
      windows.noteInbound({ clientId: 'c3', phone: phoneOf(3), at: at + HOUR });
      await windows.flush();
      const lookup = await (await place.another()).windows();
      expect(lookup.lastInboundChannel(phoneOf(1))).toBe(11);
      expect(lookup.lastInboundChannel(phoneOf(2))).toBe(14);
      expect(lookup.lastInboundAt(phoneOf(3))).toBe(at + HOUR);
      expect(lookup.lastInboundChannel(phoneOf(3))).toBeUndefined();
      expect(lookup.lastInboundChannel(phoneOf(4))).toBeUndefined();
    });

    it('keeps the number an inbound message came to with the message, for the store that rebuilds windows from the events', async () => {
      const events = await store.openEventsLog();
      await events.record({ ...inbound('m-11', 'c1', '2025-01-01T10:00:00.000Z', phoneOf(1)), channel_id: 11 });
      await events.record(inbound('m-none', 'c2', '2025-01-01T10:00:00.000Z', phoneOf(2)));
      await events.close();
      const seen = new Map<string, number | undefined>();
      const theirs = await (await place.another()).openEventsLog({ onLoad: (e) => seen.set(e.message_id, e.channel_id) });
      await theirs.close();
      expect(seen).toEqual(new Map([['m-11', 11], ['m-none', undefined]]));
    });

    it('knows the number each conversation its jobs started is on: a pool\'s from the state, one number\'s from the job', async () => {
      const pool = await store.openJob('promo', ownerA);
      await pool.record(header);
      await pool.record(sent(phoneOf(1), 1, { channel_id: 11 }));
      await pool.close();
      const single = await store.openJob('winter', ownerA);
      await single.record({ ...header, job: 'winter', content: { channel_id: 7 } });
      await single.record(sent(phoneOf(2), 2));
      await single.close();
      const conversations = await (await place.another()).knownConversations();
      expect(conversations).toEqual(new Map([['conv-1', { channel: 11 }], ['conv-2', { channel: 7 }]]));
    });

    it('records each inbound message once, whichever store received it, and shows it to another store', async () => {
      const events = await store.openEventsLog();
      const message = inbound('m1', 'c1', AT, phoneOf(1));
      expect(await events.record(message)).toBe(true);
      expect(await events.record(message)).toBe(false);
      expect(events.has('m1')).toBe(true);
      await events.close();

      const loaded: RecordedEvent[] = [];
      const theirs = await (await place.another()).openEventsLog({ onLoad: (e) => loaded.push(e) });
      expect(loaded).toEqual([message]);
      expect(theirs.has('m1')).toBe(true);
      expect(await theirs.record(message)).toBe(false);
      expect(await theirs.record(inbound('m2', 'c2', AT))).toBe(true);
      expect(theirs.size).toBe(2);
      await theirs.close();
    });

    it('finds the first reply after each sent message, by client id or phone', async () => {
      const events = await store.openEventsLog();
      await events.record(inbound('before', 'c1', '2025-01-01T09:00:00.000Z'));
      await events.record(inbound('first', 'c1', '2025-01-01T11:00:00.000Z'));
      await events.record(inbound('second', 'c1', '2025-01-01T12:00:00.000Z'));
      await events.record(inbound('by-phone', 'c9', '2025-01-01T13:00:00.000Z', phoneOf(2)));
      await events.close();
      const replies = await (await place.another()).replies([
        [phoneOf(1), { sentAt: '2025-01-01T10:00:00.000Z', clientId: 'c1' }],
        [phoneOf(2), { sentAt: '2025-01-01T10:00:00.000Z' }],
        [phoneOf(3), { sentAt: '2025-01-01T10:00:00.000Z', clientId: 'c3' }],
      ]);
      expect(replies).toEqual(new Map([[phoneOf(1), '2025-01-01T11:00:00.000Z'], [phoneOf(2), '2025-01-01T13:00:00.000Z']]));
    });

    it('keeps the sync bookmark for another store, and starts with none', async () => {
      expect(await store.loadSyncBook()).toEqual({ updatedAt: null, conversations: new Map(), lastRun: null });
      const book = { updatedAt: '2025-01-01T10:00:00.000Z', conversations: new Map([['conv-1', 17]]), lastRun: AT };
      await store.saveSyncBook(book);
      expect(await (await place.another()).loadSyncBook()).toEqual(book);
    });

    it('settles who wins a phone as the port says, whichever store wrote first: a person\'s entry over a keyword\'s, a late STOP after an opt-in ignored', async () => {
      const other = await place.another();
      const stop = { phone: phoneOf(1), reason: 'replied STOP', source: 'reply_keyword' as const, at: '2025-01-01T10:00:00.000Z' };
      expect((await store.suppress([stop])).added).toEqual([stop]);
      const manual = { phone: phoneOf(1), reason: 'asked by phone', source: 'manual' as const, at: '2025-01-01T11:00:00.000Z' };
      expect(await other.suppress([manual])).toEqual({ added: [manual], already: [] });
      const later = { phone: phoneOf(1), reason: 'replied STOP again', source: 'reply_keyword' as const, at: '2025-01-01T12:00:00.000Z' };
      expect(await store.suppress([later])).toEqual({ added: [], already: [manual] });
      // A keyword's opt-in does not take a person's entry off.
      expect(await store.unsuppress([phoneOf(1)], { onlySource: 'reply_keyword', at: '2025-01-01T13:00:00.000Z' })).toEqual([]);

      await other.suppress([{ phone: phoneOf(2), reason: 'replied STOP', source: 'reply_keyword', at: '2025-01-01T10:00:00.000Z' }]);
      expect(await store.unsuppress([phoneOf(2)], { onlySource: 'reply_keyword', at: '2025-01-01T11:00:00.000Z' })).toEqual([phoneOf(2)]);
      // A STOP dated before the opt-in arrives late: it does not suppress again.
      expect(await other.suppress([{ phone: phoneOf(2), reason: 'replied STOP', source: 'reply_keyword', at: '2025-01-01T10:30:00.000Z' }])).toEqual({ added: [], already: [] });

      const seen = await (await place.another()).suppressions();
      expect([...seen.entries()]).toEqual([manual]);
    });

    it('dates an entry that names no time with the store\'s clock', async () => {
      const before = Date.now();
      const { added } = await store.suppress([{ phone: phoneOf(1), reason: 'asked', source: 'manual' }]);
      const at = Date.parse(added[0]?.at ?? '');
      // The store's clock may be another machine's: only its being a time near now is asked.
      expect(Math.abs(at - before)).toBeLessThan(HOUR);
    });

    it('counts an entry once when its own store reads it back, and takes back an entry without an id by its job, phone and time', async () => {
      const at = Date.parse(AT);
      const ledger = await store.ledger();
      await ledger.record({ phone: phoneOf(1), at, job: 'promo', outsideWindow: true });
      await ledger.record({ phone: phoneOf(1), at: at + 1, job: 'promo', outsideWindow: true });
      await ledger.refresh();
      await ledger.refresh();
      expect(ledger.uniqueOutsideWindowSince(at - HOUR)).toBe(1);
      expect(ledger.messagesSince(phoneOf(1), at - HOUR)).toEqual([{ job: 'promo', at: at + 1 }]);
      await ledger.takeBack({ phone: phoneOf(1), at: at + 1, job: 'promo', outsideWindow: true });
      const theirs = await (await place.another()).ledger();
      expect(theirs.lastMessagedAt(phoneOf(1))).toBe(at);
      expect(theirs.lastOutsideWindowAt(phoneOf(1))).toBe(at);
    });

    it('keeps the later time when two stores write one client\'s window, and each keeps the other\'s clients', async () => {
      const at = Date.parse(AT);
      const other = await place.another();
      const mine = await store.openWindowStore();
      const theirs = await other.openWindowStore();
      mine.noteInbound({ clientId: 'c1', phone: phoneOf(1), at: at + HOUR });
      await mine.flush();
      theirs.noteInbound({ clientId: 'c1', phone: phoneOf(1), at });
      theirs.noteInbound({ clientId: 'c2', phone: phoneOf(2), at });
      await theirs.flush();
      const lookup = await (await place.another()).windows();
      expect(lookup.lastInboundAt(phoneOf(1))).toBe(at + HOUR);
      expect(lookup.lastInboundAt(phoneOf(2))).toBe(at);
    });

    it('moves a phone\'s window to its client\'s when another store links them', async () => {
      const at = Date.parse(AT);
      const mine = await store.openWindowStore();
      mine.noteInbound({ clientId: 'c1', at });
      await mine.flush();
      const theirs = await (await place.another()).openWindowStore();
      expect(theirs.lastInboundByClient('c1')).toBe(at);
      theirs.linkPhone('c1', phoneOf(1));
      expect(theirs.lastInboundByPhone(phoneOf(1))).toBe(at);
      await theirs.flush();
      expect((await store.windows()).lastInboundAt(phoneOf(1))).toBe(at);
    });

    it('counts no reply in a message sent by the company or written before the job\'s, and matches one on the conversation', async () => {
      const events = await store.openEventsLog();
      await events.record({ ...inbound('out', 'c1', '2025-01-01T11:00:00.000Z'), direction: 'outbound', sender_type: 'user' });
      await events.record(inbound('same-time', 'c1', '2025-01-01T10:00:00.000Z'));
      await events.record({ ...inbound('in-conv', 'c7', '2025-01-01T14:00:00.000Z'), conversation_id: 'conv-x' });
      await events.close();
      const replies = await (await place.another()).replies([
        [phoneOf(1), { sentAt: '2025-01-01T10:00:00.000Z', clientId: 'c1' }],
        [phoneOf(2), { sentAt: '2025-01-01T10:00:00.000Z', conversationId: 'conv-x' }],
      ]);
      expect(replies).toEqual(new Map([[phoneOf(2), '2025-01-01T14:00:00.000Z']]));
    });

    it('keeps the last sync bookmark saved', async () => {
      await store.saveSyncBook({ updatedAt: '2025-01-01T10:00:00.000Z', conversations: new Map([['conv-1', 17]]), lastRun: AT });
      const later = { updatedAt: '2025-01-02T10:00:00.000Z', conversations: new Map([['conv-1', 20], ['conv-2', 3]]), lastRun: '2025-01-02T10:05:00.000Z' };
      await (await place.another()).saveSyncBook(later);
      expect(await store.loadSyncBook()).toEqual(later);
    });

    it('knows the company of the job that started each conversation', async () => {
      const one = await store.account(1).openJob('promo', ownerA);
      await one.record({ ...header, content: { company_id: 1, channel_id: 10 } });
      await one.record(sent(phoneOf(1), 1));
      await one.close();
      const two = await store.account(2).openJob('promo', ownerA);
      await two.record({ ...header, content: { company_id: 2, channel_id: 20 } });
      await two.record(sent(phoneOf(2), 2));
      await two.close();
      const conversations = await (await place.another()).knownConversations();
      expect(conversations).toEqual(new Map([['conv-1', { channel: 10, company: 1 }], ['conv-2', { channel: 20, company: 2 }]]));
      expect(await store.companies()).toEqual([1, 2]);
    });

    it('knows the phone of every client id its jobs have met', async () => {
      const a = await store.openJob('promo', ownerA);
      await a.record(sent(phoneOf(1), 1));
      await a.record(failed(phoneOf(2), { status: 502, retryable: true, client_id: 'c2' }));
      await a.close();
      const b = await store.openJob('winter', ownerA);
      await b.record(sent(phoneOf(3), 3));
      await b.close();
      const phones = await (await place.another()).knownPhones();
      expect(phones).toEqual(new Map([['client-1', phoneOf(1)], ['c2', phoneOf(2)], ['client-3', phoneOf(3)]]));
    });
  });
  describe("a company's part of the store", () => {
    const company = (id: number, channel = 10): CheckpointEvent => ({ ...header, content: { company_id: id, channel_id: channel } });

    it("keeps each company's suppression list, ledger, windows and limit apart; a record of no company counts for every company", async () => {
      const one = store.account(1);
      const two = (await place.another()).account(2);
      expect(one.company).toBe(1);
      expect(store.account(1)).toBe(one);
      await one.suppress([{ phone: phoneOf(1), reason: 'STOP', source: 'manual' }]);
      await store.suppress([{ phone: phoneOf(9), reason: 'before companies', source: 'import' }]);
      expect([...(await two.suppressions()).entries()].map((e) => e.phone)).toEqual([phoneOf(9)]);
      expect([...(await store.account(1).suppressions()).entries()].map((e) => e.phone).sort()).toEqual([phoneOf(1), phoneOf(9)].sort());
      expect((await store.suppressions()).get(phoneOf(1))).toBeDefined();

      const ledger1 = await one.ledger();
      await ledger1.record({ phone: phoneOf(2), at: Date.parse(AT), job: 'promo', outsideWindow: true, id: 'e1', message: 'k1' });
      const ledger2 = await two.ledger();
      expect(ledger2.lastMessagedAt(phoneOf(2))).toBeUndefined();
      expect(ledger2.uniqueOutsideWindowSince(Date.parse(AT) - HOUR)).toBe(0);
      const again1 = await (await place.another()).account(1).ledger();
      expect(again1.sentTo(phoneOf(2))).toEqual([{ job: 'promo', at: Date.parse(AT), message: 'k1' }]);

      const holder = await two.budgetHolder();
      expect(await holder.take(5, 5, Date.parse(AT))).toBe(5);
      const other = await one.budgetHolder();
      expect(await other.take(5, 5, Date.parse(AT))).toBe(4);
      await holder.release();
      await other.release();

      const windows = await one.openWindowStore();
      windows.noteInbound({ clientId: 'c1', phone: phoneOf(3), at: Date.parse(AT) });
      await windows.flush();
      expect((await (await place.another()).account(1).windows()).lastInboundAt(phoneOf(3))).toBe(Date.parse(AT));
      expect((await two.windows()).lastInboundAt(phoneOf(3))).toBeUndefined();
      expect((await store.windows()).lastInboundAt(phoneOf(3))).toBe(Date.parse(AT));
    });

    it('keeps two companies\' jobs of one name apart: each its own state, under its company', async () => {
      const one = await store.account(1).openJob('promo', ownerA);
      await one.record(company(1));
      await one.record(sent(phoneOf(1), 1));
      await one.close();
      const two = await (await place.another()).account(2).openJob('promo', ownerA);
      expect(two.header).toBeUndefined();
      await two.record(company(2, 20));
      await two.record(sent(phoneOf(2), 2));
      await two.close();
      expect([...((await store.account(1).readJob('promo'))?.states.keys() ?? [])]).toEqual([phoneOf(1)]);
      expect([...((await store.account(2).readJob('promo'))?.states.keys() ?? [])]).toEqual([phoneOf(2)]);
      // A job of the store seen whole is the one stored under that name: the first company's.
      expect((await store.readJob('promo'))?.header?.content).toEqual({ company_id: 1, channel_id: 10 });
    });
  });

  describe('whether the store can be used now', () => {
    it('answers a ping on a fresh store, and again once a job is kept in it, writing nothing a job reads', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
      const job = await store.openJob('promo', ownerA);
      await job.record(header);
      await job.close();
      await expect((await place.another()).ping()).resolves.toBeUndefined();
      expect((await store.readJob('promo'))?.header).toEqual(header);
      expect(await store.runningBy('promo')).toBeUndefined();
    });
  });
});
