const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe for an HTML element or a quoted attribute. */
export function esc(text: string | number): string {
  return String(text).replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/** `1,234` */
export function num(n: number): string {
  return n.toLocaleString('en-US');
}

/** `12.5%` of `of` (0% of none). */
export function pct(n: number, of: number): string {
  return `${(of > 0 ? (n / of) * 100 : 0).toFixed(1)}%`;
}
