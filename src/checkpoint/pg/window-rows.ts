/**
 * Moving the reply windows in the database, shared by the window store's flush and the events log
 * (an inbound message and its window are written in one transaction). Times only grow (GREATEST),
 * so writers never undo one another; a client's known phone takes the client's time. Rows go in key
 * order, so two writers of the same clients lock them in the same order.
 */
import type { Queryable } from './db.js';

export interface ClientWindow {
  clientId: string;
  /** The client's phone, when this write knows it (a stored link is kept otherwise). */
  phone?: string;
  /** Epoch ms of the last inbound message, when this write knows one. */
  at?: number;
}

export interface PhoneWindow {
  phone: string;
  at: number;
}

/** What the tables hold after the write, for the rows it touched. */
export interface MovedWindows {
  clients: Array<{ clientId: string; phone: string | null; at: number | null }>;
  phones: PhoneWindow[];
}

export async function moveWindows(c: Queryable, s: string, clients: readonly ClientWindow[], phones: readonly PhoneWindow[]): Promise<MovedWindows> {
  const byClient = new Map<string, ClientWindow>();
  for (const w of clients) {
    const had = byClient.get(w.clientId);
    const at = Math.max(w.at ?? -Infinity, had?.at ?? -Infinity);
    const phone = w.phone ?? had?.phone;
    byClient.set(w.clientId, { clientId: w.clientId, ...(phone !== undefined && { phone }), ...(Number.isFinite(at) && { at }) });
  }
  const sorted = [...byClient.values()].sort((a, b) => (a.clientId < b.clientId ? -1 : a.clientId > b.clientId ? 1 : 0));
  const moved: MovedWindows = { clients: [], phones: [] };
  const phoneTimes = new Map<string, number>();
  const notePhone = (phone: string, at: number) => phoneTimes.set(phone, Math.max(at, phoneTimes.get(phone) ?? -Infinity));
  for (const p of phones) notePhone(p.phone, p.at);

  if (sorted.length > 0) {
    const { rows } = await c.query<{ client_id: string; phone: string | null; last_inbound_at: string | null }>(
      `INSERT INTO ${s}.window_clients (client_id, phone, last_inbound_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[]) ORDER BY 1
       ON CONFLICT (client_id) DO UPDATE SET
         phone = COALESCE(EXCLUDED.phone, window_clients.phone),
         last_inbound_at = GREATEST(window_clients.last_inbound_at, EXCLUDED.last_inbound_at)
       RETURNING client_id, phone, last_inbound_at`,
      [sorted.map((w) => w.clientId), sorted.map((w) => w.phone ?? null), sorted.map((w) => w.at ?? null)],
    );
    for (const row of rows) {
      const at = row.last_inbound_at === null ? null : Number(row.last_inbound_at);
      moved.clients.push({ clientId: row.client_id, phone: row.phone, at });
      if (row.phone !== null && at !== null) notePhone(row.phone, at);
    }
  }
  if (phoneTimes.size > 0) {
    const keys = [...phoneTimes.keys()].sort();
    const { rows } = await c.query<{ phone: string; last_inbound_at: string }>(
      `INSERT INTO ${s}.window_phones (phone, last_inbound_at)
       SELECT * FROM unnest($1::text[], $2::bigint[]) ORDER BY 1
       ON CONFLICT (phone) DO UPDATE SET last_inbound_at = GREATEST(window_phones.last_inbound_at, EXCLUDED.last_inbound_at)
       RETURNING phone, last_inbound_at`,
      [keys, keys.map((k) => phoneTimes.get(k) ?? 0)],
    );
    moved.phones = rows.map((r) => ({ phone: r.phone, at: Number(r.last_inbound_at) }));
  }
  return moved;
}
