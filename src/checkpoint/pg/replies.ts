/**
 * The replies column from the database: for each sent contact, the first inbound message after its
 * message, matched by client id, conversation id or phone (as the file backend's `repliesFor`). The
 * contacts go to the server in chunks and are joined there with the inbound messages (indexes on
 * client, conversation and phone), so a million-contact report never loads the events.
 */
import type { SentContact } from '../inbound.js';
import type { Db } from './db.js';
import { readDb } from './write.js';

const CHUNK = 10_000;

export async function pgReplies(db: Db, sent: Iterable<readonly [string, SentContact]>): Promise<Map<string, string>> {
  const s = db.s;
  const replies = new Map<string, string>();
  const { rows: any } = await readDb(db, () => db.query(`SELECT 1 FROM ${s}.events WHERE direction = 'inbound' LIMIT 1`));
  if (any.length === 0) return replies;
  let chunk: Array<readonly [string, SentContact]> = [];
  const ask = async () => {
    const valid = chunk.filter(([, c]) => !Number.isNaN(Date.parse(c.sentAt)));
    chunk = [];
    if (valid.length === 0) return;
    const { rows } = await readDb(db, () =>
      db.query<{ phone: string; first: Date }>(
        `WITH c (phone, sent_at, client_id, conversation_id) AS (
           SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::text[], $4::text[])
         ), i AS (
           SELECT client_id, phone, event->>'conversation_id' AS conversation_id, created_at FROM ${s}.events WHERE direction = 'inbound'
         ), m (phone, at) AS (
           SELECT c.phone, i.created_at FROM c JOIN i ON i.client_id = c.client_id AND i.created_at > c.sent_at
           UNION ALL
           SELECT c.phone, i.created_at FROM c JOIN i ON i.conversation_id = c.conversation_id AND i.created_at > c.sent_at
           UNION ALL
           SELECT c.phone, i.created_at FROM c JOIN i ON i.phone = c.phone AND i.created_at > c.sent_at
         )
         SELECT phone, min(at) AS first FROM m GROUP BY phone`,
        [valid.map(([p]) => p), valid.map(([, c]) => c.sentAt), valid.map(([, c]) => c.clientId ?? null), valid.map(([, c]) => c.conversationId ?? null)],
      ),
    );
    for (const r of rows) replies.set(r.phone, r.first.toISOString());
  };
  for (const entry of sent) {
    chunk.push(entry);
    if (chunk.length >= CHUNK) await ask();
  }
  await ask();
  return replies;
}
