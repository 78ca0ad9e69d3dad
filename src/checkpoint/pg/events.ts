/** The webhook's events in the database. Filled by the lists work. */
import type { EventsLog, OpenEventsLogOptions, SentContact } from '../inbound.js';
import type { Db } from './db.js';

const notYet = (): never => {
  throw new Error('not written yet');
};
export function openPgEventsLog(_db: Db, _options?: OpenEventsLogOptions): Promise<EventsLog> {
  return notYet();
}
export function pgReplies(_db: Db, _sent: Iterable<readonly [string, SentContact]>): Promise<Map<string, string>> {
  return notYet();
}
