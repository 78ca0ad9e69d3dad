/** The sending window in a zone's local time (luxon does the zone arithmetic, DST included). Pure. */
import { DateTime } from 'luxon';
import { WEEKDAYS, type SendWindow } from '../job/index.js';

/**
 * When the window next opens in `zone`, or undefined when it is open at `now` (epoch ms). A local
 * time that does not exist on a DST day moves forward, as clocks do.
 */
export function nextOpening(now: number, window: Pick<SendWindow, 'from' | 'to' | 'days'>, zone: string): number | undefined {
  const local = DateTime.fromMillis(now, { zone });
  const today = local.startOf('day');
  for (let d = 0; d <= 7; d++) {
    const day = today.plus({ days: d });
    const weekday = WEEKDAYS[day.weekday - 1];
    if (weekday === undefined || !window.days.includes(weekday)) continue;
    const opens = at(day, window.from);
    if (d === 0 && opens <= now && now < at(day, window.to)) return undefined;
    if (opens > now) return opens;
  }
  return now + 7 * 86_400_000;
}

/** `HH:MM[:SS]` (or `24:00`) of that local day, epoch ms. */
function at(day: DateTime, time: string): number {
  const [h = 0, m = 0, s = 0] = time.split(':').map(Number);
  if (h === 24) return day.plus({ days: 1 }).startOf('day').toMillis();
  return day.set({ hour: h, minute: m, second: s, millisecond: 0 }).toMillis();
}
