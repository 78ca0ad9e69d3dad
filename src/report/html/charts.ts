import { DateTime } from 'luxon';
import { currentLocale, esc, num } from './escape.js';
import type { TimeBucket } from './types.js';

/**
 * Charts drawn by the program as inline SVG (no script, no network). Shapes only live in the SVG,
 * which scales to its box; every word and number is HTML around it, so it stays readable on a phone.
 */

/** One horizontal bar, `value` of `max`, filling its row. */
export function bar(value: number, max: number, cls: string): string {
  const width = max > 0 ? Math.max(0, Math.min(100, (value / max) * 100)) : 0;
  return (
    `<svg class="bar ${cls}" viewBox="0 0 100 10" preserveAspectRatio="none" role="img" aria-hidden="true">` +
    `<rect class="track" x="0" y="0" width="100" height="10" rx="1.5"/>` +
    `<rect class="fill" x="0" y="0" width="${width.toFixed(2)}" height="10" rx="1.5"/></svg>`
  );
}

const W = 600;
const H = 160;

/** Columns over time, one per bucket, with a dashed line at `limit` when given; captions in HTML under it. */
export function columns(buckets: readonly TimeBucket[], options: { limit?: number; name: string; unit: string; zone: string }): string {
  if (buckets.length === 0) return `<p class="empty">No ${esc(options.name)} yet.</p>`;
  const peak = Math.max(...buckets.map((b) => b.count));
  const top = Math.max(1, peak, options.limit ?? 0) * 1.08;
  // A short run is a few bars: they keep a column's width instead of filling the chart.
  const step = W / Math.max(buckets.length, 24);
  const gap = buckets.length > 60 ? 0 : Math.min(2, step * 0.2);
  const y = (v: number) => H - (v / top) * H;
  const rects = buckets
    .map((b, i) => {
      const h = H - y(b.count);
      return `<rect x="${(i * step + gap / 2).toFixed(2)}" y="${y(b.count).toFixed(2)}" width="${Math.max(0.5, step - gap).toFixed(2)}" height="${h.toFixed(2)}"><title>${esc(label(b.start, options.zone))} ${esc(options.zone)}: ${num(b.count)} ${esc(options.unit)}</title></rect>`;
    })
    .join('');
  const limit =
    options.limit !== undefined
      ? `<line class="limit" x1="0" x2="${W}" y1="${y(options.limit).toFixed(2)}" y2="${y(options.limit).toFixed(2)}" vector-effect="non-scaling-stroke"/>`
      : '';
  return (
    `<figure class="chart"><svg viewBox="0 0 ${W} ${H}" preserveAspectRatio="none" role="img" aria-label="${esc(options.name)}">` +
    `<line class="axis" x1="0" x2="${W}" y1="${H}" y2="${H}" vector-effect="non-scaling-stroke"/>${rects}${limit}</svg>` +
    `<figcaption><span>${esc(span(buckets, options.zone))} ${esc(options.zone)}</span><span>peak ${num(peak)} ${esc(options.unit)}</span></figcaption></figure>`
  );
}

/** `2026-11-27 14:03:05` in `zone` (which the caller names beside it), seconds left out when zero. */
export function label(iso: string, zone: string): string {
  const at = DateTime.fromISO(iso, { zone });
  const locale = currentLocale();
  if (locale !== undefined && at.isValid) {
    const seconds = at.second !== 0 ? { second: '2-digit' as const } : {};
    return new Intl.DateTimeFormat(locale, { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', ...seconds }).format(at.toMillis());
  }
  const text = at.isValid ? at.toFormat('yyyy-MM-dd HH:mm:ss') : iso;
  return text.endsWith(':00') ? text.slice(0, 16) : text;
}

/** From the first bucket to the last: the day once, when both are on it. */
function span(buckets: readonly TimeBucket[], zone: string): string {
  const first = buckets[0];
  const last = buckets[buckets.length - 1];
  if (!first || !last) return '';
  const a = label(first.start, zone);
  const b = label(last.start, zone);
  if (a === b) return a;
  if (currentLocale() !== undefined) return `${a} – ${b}`;
  return a.slice(0, 10) === b.slice(0, 10) ? `${a} – ${b.slice(11)}` : `${a} – ${b}`;
}
