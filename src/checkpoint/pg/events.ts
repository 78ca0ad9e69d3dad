/**
 * The webhook's events in the database: table `events`, one row per message id, whichever process
 * received it (INSERT … ON CONFLICT DO NOTHING: `record` answers false for a message already there).
 * The records made while a transaction is being written share the next one. An inbound message
 * moves its window (`window_clients`, and `window_phones` when its phone is known, by the event or
 * by a stored link) in the same transaction: the message and its window are never apart.
 *
 * Each write carries its own id (`write_id`): run again after its connection was lost, it still
 * answers "new" for the messages its earlier try recorded.
 *
 * Opening reads only the message ids (for `has`), and hands `onLoad` the stored inbound messages,
 * a page at a time; an outbound message tells a window nothing, and the windows already moved with
 * their messages, so a process that rebuilds its window store from them writes nothing.
 */
import { randomUUID } from 'node:crypto';
import type { EventsLog, OpenEventsLogOptions, RecordedEvent } from '../inbound.js';
import type { Db, Queryable } from './db.js';
import { moveWindows, type ClientWindow, type PhoneWindow } from './window-rows.js';
import { batched, readDb, writeTx } from './write.js';

export { pgReplies } from './replies.js';

const PAGE = 5_000;

export async function openPgEventsLog(db: Db, options: OpenEventsLogOptions = {}): Promise<EventsLog> {
  const s = db.s;
  const seen = new Set<string>();
  const { rows: ids } = await readDb(db, () => db.query<{ message_id: string }>(`SELECT message_id FROM ${s}.events`));
  for (const r of ids) seen.add(r.message_id);
  if (options.onLoad) await loadInbound(db, (event) => {
    seen.add(event.message_id);
    options.onLoad?.(event);
  });

  const inFlight = new Map<string, Promise<boolean>>();
  let closed = false;
  const writes = batched<RecordedEvent, boolean>(async (events) => {
    const writeId = randomUUID();
    const fresh = await writeTx(db, "the webhook's events", (c) => insertEvents(c, s, events, writeId));
    for (const e of events) seen.add(e.message_id);
    return events.map((e) => fresh.has(e.message_id));
  });

  return {
    get size() {
      return seen.size;
    },
    has: (messageId) => seen.has(messageId),
    record(event) {
      if (closed) return Promise.reject(new Error(`the events log of the store (${db.url.place}) is closed`));
      const id = event.message_id;
      const running = inFlight.get(id);
      if (running) return running.then(() => false);
      if (seen.has(id)) return Promise.resolve(false);
      const promise = writes.add(event).finally(() => inFlight.delete(id));
      inFlight.set(id, promise);
      return promise;
    },
    async close() {
      closed = true;
      await writes.idle();
    },
  };
}

/**
 * Inserts the events (each message id once), moves the windows of the new inbound ones; the ids that
 * were new, counting those an earlier try of the same write (`writeId`) recorded. Safe to run again.
 */
export async function insertEvents(c: Queryable, s: string, events: readonly RecordedEvent[], writeId: string): Promise<Set<string>> {
  const sorted = [...events].sort((a, b) => (a.message_id < b.message_id ? -1 : a.message_id > b.message_id ? 1 : 0));
  const { rows } = await c.query<{ message_id: string }>(
    `INSERT INTO ${s}.events (message_id, client_id, phone, direction, created_at, event, write_id)
     SELECT u.*, $7::uuid FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::jsonb[]) AS u ORDER BY 1
     ON CONFLICT (message_id) DO NOTHING
     RETURNING message_id`,
    [
      sorted.map((e) => e.message_id),
      sorted.map((e) => e.client_id),
      sorted.map((e) => e.phone ?? null),
      sorted.map((e) => e.direction),
      sorted.map((e) => e.created_at),
      sorted.map((e) => JSON.stringify(e)),
      writeId,
    ],
  );
  const fresh = new Set(rows.map((r) => r.message_id));
  if (fresh.size < sorted.length) {
    // A statement of its own (it sees what committed meanwhile): the messages an earlier try of this write recorded are new too.
    const { rows: earlier } = await c.query<{ message_id: string }>(`SELECT message_id FROM ${s}.events WHERE message_id = ANY($1::text[]) AND write_id = $2::uuid`, [sorted.map((e) => e.message_id), writeId]);
    for (const r of earlier) fresh.add(r.message_id);
  }
  const clients: ClientWindow[] = [];
  const phones: PhoneWindow[] = [];
  for (const e of sorted) {
    const at = Date.parse(e.created_at);
    if (!fresh.has(e.message_id) || e.direction !== 'inbound' || Number.isNaN(at)) continue;
    const channel = { ...(e.channel_id !== undefined && { channel: e.channel_id }), ...(e.company_id !== undefined && { company: e.company_id }) };
    clients.push({ clientId: e.client_id, at, ...(e.phone !== undefined && { phone: e.phone }), ...channel });
    if (e.phone !== undefined) phones.push({ phone: e.phone, at, ...channel });
  }
  if (clients.length > 0) await moveWindows(c, s, clients, phones);
  return fresh;
}

/** Calls `onEvent` for each stored inbound message, oldest first, reading a page at a time. */
async function loadInbound(db: Db, onEvent: (event: RecordedEvent) => void): Promise<void> {
  let after = 0;
  for (;;) {
    const { rows } = await readDb(db, () =>
      db.query<{ seq: string; event: RecordedEvent }>(`SELECT seq, event FROM ${db.s}.events WHERE direction = 'inbound' AND seq > $1 ORDER BY seq LIMIT ${PAGE}`, [after]),
    );
    for (const r of rows) onEvent(r.event);
    if (rows.length < PAGE) return;
    after = Number(rows[rows.length - 1]?.seq ?? after);
  }
}
