/**
 * Moving the reply windows in the database, shared by the window store's flush and the events log
 * (an inbound message and its window are written in one transaction). Times only grow (GREATEST),
 * so writers never undo one another; a client's known phone takes the client's time. A row's number
 * (`channel_id`, migration 5) goes with its time. Rows go in key
 * order, so two writers of the same clients lock them in the same order.
 */
import type { Queryable } from './db.js';
import { inboundMark, laterInbound, type InboundMark } from '../windows.js';

export interface ClientWindow {
  clientId: string;
  /** The client's phone, when this write knows it (a stored link is kept otherwise). */
  phone?: string;
  /** Epoch ms of the last inbound message, when this write knows one. */
  at?: number;
  /** The number (channel id) that message came to, when known. */
  channel?: number;
  /** The company it belongs to, when known. */
  company?: number;
}

export interface PhoneWindow {
  phone: string;
  at: number;
  channel?: number;
  company?: number;
}

/** What the tables hold after the write, for the rows it touched. */
export interface MovedWindows {
  clients: Array<{ clientId: string; phone: string | null; at: number | null; channel: number | null; company: number | null }>;
  phones: PhoneWindow[];
}

/**
 * The SQL that keeps a row's number with its time, as `laterInbound` does: a later message brings its
 * own number (or none), one at the same time only fills a number not known.
 */
const partOf = (table: string, column: 'channel_id' | 'company_id') => `CASE
  WHEN EXCLUDED.last_inbound_at IS NULL THEN ${table}.${column}
  WHEN ${table}.last_inbound_at IS NULL OR EXCLUDED.last_inbound_at > ${table}.last_inbound_at THEN EXCLUDED.${column}
  WHEN EXCLUDED.last_inbound_at = ${table}.last_inbound_at THEN COALESCE(${table}.${column}, EXCLUDED.${column})
  ELSE ${table}.${column} END`;

const markOf = (w: { at?: number; channel?: number; company?: number }): InboundMark | undefined => (w.at === undefined ? undefined : inboundMark(w.at, w.channel, w.company));
const numberOf = (v: number | string | null): number | undefined => (v === null ? undefined : Number(v));

export async function moveWindows(c: Queryable, s: string, clients: readonly ClientWindow[], phones: readonly PhoneWindow[]): Promise<MovedWindows> {
  const byClient = new Map<string, ClientWindow>();
  for (const w of clients) {
    const had = byClient.get(w.clientId);
    const mark = markOf(w);
    const hadMark = had && markOf(had);
    const kept = mark === undefined ? hadMark : laterInbound(hadMark, mark);
    const phone = w.phone ?? had?.phone;
    byClient.set(w.clientId, {
      clientId: w.clientId,
      ...(phone !== undefined && { phone }),
      ...(kept && { at: kept.at }),
      ...(kept?.channel !== undefined && { channel: kept.channel }),
      ...(kept?.company !== undefined && { company: kept.company }),
    });
  }
  const sorted = [...byClient.values()].sort((a, b) => (a.clientId < b.clientId ? -1 : a.clientId > b.clientId ? 1 : 0));
  const moved: MovedWindows = { clients: [], phones: [] };
  const phoneMarks = new Map<string, InboundMark>();
  const notePhone = (phone: string, mark: InboundMark) => phoneMarks.set(phone, laterInbound(phoneMarks.get(phone), mark));
  for (const p of phones) notePhone(p.phone, inboundMark(p.at, p.channel, p.company));

  if (sorted.length > 0) {
    const { rows } = await c.query<{ client_id: string; phone: string | null; last_inbound_at: string | null; channel_id: number | null; company_id: string | null }>(
      `INSERT INTO ${s}.window_clients (client_id, phone, last_inbound_at, channel_id, company_id)
       SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::integer[], $5::bigint[]) ORDER BY 1
       ON CONFLICT (client_id) DO UPDATE SET
         phone = COALESCE(EXCLUDED.phone, window_clients.phone),
         channel_id = ${partOf('window_clients', 'channel_id')},
         company_id = ${partOf('window_clients', 'company_id')},
         last_inbound_at = GREATEST(window_clients.last_inbound_at, EXCLUDED.last_inbound_at)
       RETURNING client_id, phone, last_inbound_at, channel_id, company_id`,
      [sorted.map((w) => w.clientId), sorted.map((w) => w.phone ?? null), sorted.map((w) => w.at ?? null), sorted.map((w) => w.channel ?? null), sorted.map((w) => w.company ?? null)],
    );
    for (const row of rows) {
      const at = row.last_inbound_at === null ? null : Number(row.last_inbound_at);
      const company = numberOf(row.company_id);
      moved.clients.push({ clientId: row.client_id, phone: row.phone, at, channel: row.channel_id, company: company ?? null });
      if (row.phone !== null && at !== null) notePhone(row.phone, inboundMark(at, numberOf(row.channel_id), company));
    }
  }
  if (phoneMarks.size > 0) {
    const keys = [...phoneMarks.keys()].sort();
    const { rows } = await c.query<{ phone: string; last_inbound_at: string; channel_id: number | null; company_id: string | null }>(
      `INSERT INTO ${s}.window_phones (phone, last_inbound_at, channel_id, company_id)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::integer[], $4::bigint[]) ORDER BY 1
       ON CONFLICT (phone) DO UPDATE SET
         channel_id = ${partOf('window_phones', 'channel_id')},
         company_id = ${partOf('window_phones', 'company_id')},
         last_inbound_at = GREATEST(window_phones.last_inbound_at, EXCLUDED.last_inbound_at)
       RETURNING phone, last_inbound_at, channel_id, company_id`,
      [keys, keys.map((k) => phoneMarks.get(k)?.at ?? 0), keys.map((k) => phoneMarks.get(k)?.channel ?? null), keys.map((k) => phoneMarks.get(k)?.company ?? null)],
    );
    moved.phones = rows.map((r) => ({ phone: r.phone, at: Number(r.last_inbound_at), ...(r.channel_id !== null && { channel: r.channel_id }), ...(r.company_id !== null && { company: Number(r.company_id) }) }));
  }
  return moved;
}
