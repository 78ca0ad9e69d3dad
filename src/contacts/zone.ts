/** A row's time-zone cell → the IANA zone's canonical name (`america/sao_paulo` → `America/Sao_Paulo`). */

/** The canonical name of an IANA time zone, or undefined when the text is none. Intl knows the zones (ICU's tz data). */
export function readZone(cell: string): string | undefined {
  const text = cell.trim();
  if (text === '') return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: text }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** Past this many distinct cells, new ones are read without being kept. */
const MAX_CACHED = 10_000;

/** `readZone` once per distinct cell of a load (a list names a handful of zones). */
export class ZoneCells {
  private readonly seen = new Map<string, string | undefined>();

  read(cell: string): string | undefined {
    if (this.seen.has(cell)) return this.seen.get(cell);
    const zone = readZone(cell);
    if (this.seen.size < MAX_CACHED) this.seen.set(cell, zone);
    return zone;
  }
}
