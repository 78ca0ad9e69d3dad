import type { MessagingRoom } from '../../app/index.js';
import { count } from '../../locale/people.js';
import type { DeferredGroup } from '../../report/index.js';
import { formatTime, inZone, readers, type Readers } from './time.js';

/**
 * "230 deferred: quiet_hours until 09:00 America/Sao_Paulo; daily_limit until 14:20 Europe/Lisbon":
 * how many, why, and when the first of each reason may go (quiet hours and a local start_at in the
 * contact's zone, the rest in the reader's). Undefined when nothing is deferred.
 */
export function formatDeferred(groups: readonly DeferredGroup[], now: number, r: Readers): string | undefined {
  if (groups.length === 0) return undefined;
  const p = readers(r);
  const total = groups.reduce((n, g) => n + g.count, 0);
  const parts = groups.map((g) => `${g.reason} until ${formatTime(Date.parse(g.notBefore), inZone(r, g.zone), now)}${groups.length > 1 ? ` (${count(p, g.count)})` : ''}`);
  return `${count(p, total)} deferred: ${parts.join('; ')}`;
}

/**
 * "messaging limit: 208 of 250 left in the rolling 24 hours (38 recipient(s) messaged outside their
 * 24-hour window in the last 24 hours, by every job of the store; 4 place(s) held by runs going on)":
 * the room of the store's one budget, net of the places running processes hold.
 */
export function formatRoom(room: MessagingRoom, now: number, r: Readers): string {
  const p = readers(r);
  const used = `${count(p, room.used)} recipient(s) messaged outside their 24-hour window in the last 24 hours, by every job of the store`;
  if (room.limit === undefined || room.room === undefined) return `messaging limit: none set (limits.daily_unique_recipients); ${used}`;
  const held = room.held !== undefined && room.held > 0 ? `; ${count(p, room.held)} place(s) held by runs going on` : '';
  const frees = room.room === 0 && room.freesAt !== undefined ? `; room frees at ${formatTime(Date.parse(room.freesAt), r, now)}` : '';
  return `messaging limit: ${count(p, room.room)} of ${count(p, room.limit)} left in the rolling 24 hours (${used}${held})${frees}`;
}
