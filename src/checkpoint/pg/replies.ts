/**
 * The replies column from the database: for each sent contact, the first inbound message after its
 * message, matched by client id, conversation id or phone (as the file backend's `repliesFor`). The
 * contacts go to the server (a temporary table, dropped at commit: no session state) and are joined
 * there with the inbound messages in one query, so a million-contact report never loads the events
 * and the events are read once, not once per chunk of contacts.
 */
import type { SentContact } from '../inbound.js';
import type { Db } from './db.js';
import { readDb } from './write.js';

const CHUNK = 10_000;

export async function pgReplies(db: Db, sent: Iterable<readonly [string, SentContact]>): Promise<Map<string, string>> {
  const s = db.s;
  const replies = new Map<string, string>();
  const { rows: anyInbound } = await readDb(db, () => db.query(`SELECT 1 FROM ${s}.events WHERE direction = 'inbound' LIMIT 1`));
  if (anyInbound.length === 0) return replies;
  await readDb(db, () =>
    db.tx(async (c) => {
      await c.query('CREATE TEMPORARY TABLE outreach_sent (phone text, sent_at timestamptz, client_id text, conversation_id text) ON COMMIT DROP');
      let chunk: Array<readonly [string, SentContact]> = [];
      const send = async () => {
        const valid = chunk.filter(([, contact]) => !Number.isNaN(Date.parse(contact.sentAt)));
        chunk = [];
        if (valid.length === 0) return;
        await c.query('INSERT INTO outreach_sent SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::text[], $4::text[])', [
          valid.map(([phone]) => phone),
          valid.map(([, contact]) => contact.sentAt),
          valid.map(([, contact]) => contact.clientId ?? null),
          valid.map(([, contact]) => contact.conversationId ?? null),
        ]);
      };
      for (const entry of sent) {
        chunk.push(entry);
        if (chunk.length >= CHUNK) await send();
      }
      await send();
      await c.query('ANALYZE outreach_sent');
      const { rows } = await c.query<{ phone: string; first: Date }>(
        `WITH i AS (
           SELECT client_id, phone, event->>'conversation_id' AS conversation_id, created_at FROM ${s}.events WHERE direction = 'inbound'
         ), m (phone, at) AS (
           SELECT c.phone, i.created_at FROM outreach_sent c JOIN i ON i.client_id = c.client_id AND i.created_at > c.sent_at
           UNION ALL
           SELECT c.phone, i.created_at FROM outreach_sent c JOIN i ON i.conversation_id = c.conversation_id AND i.created_at > c.sent_at
           UNION ALL
           SELECT c.phone, i.created_at FROM outreach_sent c JOIN i ON i.phone = c.phone AND i.created_at > c.sent_at
         )
         SELECT phone, min(at) AS first FROM m GROUP BY phone`,
      );
      for (const r of rows) replies.set(r.phone, r.first.toISOString());
    }),
  );
  return replies;
}
