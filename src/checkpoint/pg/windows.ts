/**
 * The reply windows in the database: `window_clients` (last inbound time and phone per client id)
 * and `window_phones` (last inbound time per phone), each with the number that message came to when known. A lookup (`pgWindows`) reads the phones now. The
 * window store of a process that writes them (the receiver, `sync`) is in memory like the file
 * one, read whole when opened; `flush` writes what changed since (times only grow: GREATEST) and
 * takes back what the tables hold for those rows, so another process's later times win. An inbound
 * message recorded in the events log has already moved its window (`events.ts`).
 */
import { inboundMark, laterInbound, markFor, type InboundMark, type WindowLookup, type WindowStore } from '../windows.js';
import type { Db } from './db.js';
import { moveWindows, type ClientWindow } from './window-rows.js';
import { readDb, writeTx } from './write.js';
import { coalescedWrite } from '../coalesced-write.js';

const numberOf = (v: number | string | null): number | undefined => (v === null ? undefined : Number(v));

async function readPhones(db: Db): Promise<Map<string, InboundMark>> {
  const { rows } = await readDb(db, () =>
    db.query<{ phone: string; last_inbound_at: string; channel_id: number | null; company_id: string | null }>(`SELECT phone, last_inbound_at, channel_id, company_id FROM ${db.s}.window_phones`),
  );
  return new Map(rows.map((r) => [r.phone, inboundMark(Number(r.last_inbound_at), numberOf(r.channel_id), numberOf(r.company_id))]));
}

/** The windows `company` sees (its marks and those of no company; undefined: every mark), read now. */
export async function pgWindows(db: Db, company?: number): Promise<WindowLookup> {
  const phones = await readPhones(db);
  return { lastInboundAt: (phone) => markFor(phones.get(phone), company)?.at, lastInboundChannel: (phone) => markFor(phones.get(phone), company)?.channel };
}

/** The window store of `company` (undefined: every mark); a mark noted without a company gets this one's. */
export async function openPgWindowStore(db: Db, company?: number): Promise<WindowStore> {
  const clients = new Map<string, InboundMark>();
  const links = new Map<string, string>();
  const { rows } = await readDb(db, () =>
    db.query<{ client_id: string; phone: string | null; last_inbound_at: string | null; channel_id: number | null; company_id: string | null }>(
      `SELECT client_id, phone, last_inbound_at, channel_id, company_id FROM ${db.s}.window_clients`,
    ),
  );
  for (const r of rows) {
    if (r.last_inbound_at !== null) clients.set(r.client_id, inboundMark(Number(r.last_inbound_at), numberOf(r.channel_id), numberOf(r.company_id)));
    if (r.phone !== null) links.set(r.client_id, r.phone);
  }
  const phones = await readPhones(db);
  /** Keys changed since the last flush. */
  let dirtyClients = new Set<string>();
  let dirtyPhones = new Set<string>();

  const setLatest = (map: Map<string, InboundMark>, key: string, mark: InboundMark): boolean => {
    const old = map.get(key);
    const kept = laterInbound(old, mark);
    if (kept === old) return false;
    map.set(key, kept);
    return true;
  };
  const link = (clientId: string, phone: string) => {
    if (links.get(clientId) === phone) return;
    links.set(clientId, phone);
    dirtyClients.add(clientId);
  };
  const channelOf = (mark: InboundMark | undefined) => ({ ...(mark?.channel !== undefined && { channel: mark.channel }), ...(mark?.company !== undefined && { company: mark.company }) });

  async function write(): Promise<void> {
    if (dirtyClients.size === 0 && dirtyPhones.size === 0) return;
    const touchedClients = dirtyClients;
    const touchedPhones = dirtyPhones;
    dirtyClients = new Set();
    dirtyPhones = new Set();
    const rowsOfClients: ClientWindow[] = [...touchedClients].map((clientId) => {
      const phone = links.get(clientId);
      const mark = clients.get(clientId);
      return { clientId, ...(phone !== undefined && { phone }), ...(mark !== undefined && { at: mark.at }), ...channelOf(mark) };
    });
    const rowsOfPhones = [...touchedPhones].flatMap((phone) => {
      const mark = phones.get(phone);
      return mark === undefined ? [] : [{ phone, at: mark.at, ...channelOf(mark) }];
    });
    try {
      const moved = await writeTx(db, 'the reply windows', (c) => moveWindows(c, db.s, rowsOfClients, rowsOfPhones));
      for (const c of moved.clients) {
        if (c.at !== null) setLatest(clients, c.clientId, inboundMark(c.at, c.channel ?? undefined, c.company ?? undefined));
        if (c.phone !== null && !links.has(c.clientId)) links.set(c.clientId, c.phone);
      }
      for (const p of moved.phones) setLatest(phones, p.phone, { at: p.at, ...channelOf(p) });
    } catch (err) {
      for (const k of touchedClients) dirtyClients.add(k);
      for (const k of touchedPhones) dirtyPhones.add(k);
      throw err;
    }
  }

  const store: WindowStore = {
    noteInbound({ clientId, phone, at, channelId, company: of }) {
      if (!Number.isFinite(at)) return;
      const mark = inboundMark(at, channelId, of ?? company);
      if (setLatest(clients, clientId, mark)) dirtyClients.add(clientId);
      if (phone !== undefined) link(clientId, phone);
      const known = phone ?? links.get(clientId);
      if (known !== undefined && setLatest(phones, known, mark)) dirtyPhones.add(known);
    },
    linkPhone(clientId, phone) {
      link(clientId, phone);
      const mark = clients.get(clientId);
      if (mark !== undefined && setLatest(phones, phone, mark)) dirtyPhones.add(phone);
    },
    phoneOf: (clientId) => links.get(clientId),
    lastInboundByPhone: (phone) => markFor(phones.get(phone), company)?.at,
    lastInboundAt: (phone) => markFor(phones.get(phone), company)?.at,
    lastInboundChannel: (phone) => markFor(phones.get(phone), company)?.channel,
    lastInboundByClient: (clientId) => markFor(clients.get(clientId), company)?.at,
    flush: coalescedWrite(write),
  };
  return store;
}
