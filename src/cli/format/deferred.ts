import { DateTime } from 'luxon';
import type { MessagingRoom } from '../../app/index.js';
import type { DeferredGroup } from '../../report/index.js';

/**
 * "230 deferred: quiet_hours until 09:00 America/Sao_Paulo; daily_limit until 14:20": how many, why,
 * and when the first of each reason may go (quiet hours in the contact's zone, the rest in this
 * machine's local time). Undefined when nothing is deferred.
 */
export function formatDeferred(groups: readonly DeferredGroup[], now: number): string | undefined {
  if (groups.length === 0) return undefined;
  const total = groups.reduce((n, g) => n + g.count, 0);
  const parts = groups.map((g) => `${g.reason} until ${when(Date.parse(g.notBefore), g.zone, now)}${groups.length > 1 ? ` (${g.count})` : ''}`);
  return `${total} deferred: ${parts.join('; ')}`;
}

/** "14:20" today, "Tue 09:00" within the week, "2026-03-20 09:00" later; with the zone when one is given. */
export function when(at: number, zone: string | undefined, now: number): string {
  const local = zone === undefined ? DateTime.fromMillis(at) : DateTime.fromMillis(at, { zone });
  const today = zone === undefined ? DateTime.fromMillis(now) : DateTime.fromMillis(now, { zone });
  const format = local.hasSame(today, 'day') ? 'HH:mm' : Math.abs(at - now) < 6 * 86_400_000 ? 'ccc HH:mm' : 'yyyy-MM-dd HH:mm';
  return `${local.toFormat(format)}${zone === undefined ? '' : ` ${zone}`}`;
}

/** "messaging limit: 212 of 250 left in the rolling 24 hours (38 recipients messaged outside their window by every job of this state folder)". */
export function formatRoom(room: MessagingRoom, now: number): string {
  const used = `${room.used} recipient(s) messaged outside their 24-hour window in the last 24 hours, by every job of this state folder`;
  if (room.limit === undefined || room.room === undefined) return `messaging limit: none set (limits.daily_unique_recipients); ${used}`;
  const frees = room.room === 0 && room.freesAt !== undefined ? `; room frees at ${when(Date.parse(room.freesAt), undefined, now)}` : '';
  return `messaging limit: ${room.room} of ${room.limit} left in the rolling 24 hours (${used})${frees}`;
}
