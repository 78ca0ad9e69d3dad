/**
 * The suppression list: phones no job of the state folder may message. Every backend keeps it as
 * a sequence of changes (add, remove) folded by `SuppressionIndex`, so what one process wrote and
 * what another reads cannot disagree.
 *
 * Who wins when one phone gets several entries:
 * - an entry made by a person or the provider (`manual`, `import`, `provider`) replaces one made by
 *   an opt-out keyword, and is never replaced by a keyword's;
 * - otherwise the first entry stays (its reason and time are the ones shown);
 * - an opt-in keyword removes only an entry made by a keyword at or before it, and a keyword
 *   opt-out dated before the last opt-in (a late-arriving STOP) does not suppress again.
 */

export type SuppressionSource = 'manual' | 'import' | 'reply_keyword' | 'provider';
export const SUPPRESSION_SOURCES: readonly SuppressionSource[] = ['manual', 'import', 'reply_keyword', 'provider'];

/** What a caller hands `StateStore.suppress`: the phone in E.164, why, and who says so. */
export interface SuppressionInput {
  phone: string;
  reason: string;
  source: SuppressionSource;
  /** When (ISO); the store's clock when left out. For a keyword, the inbound message's time. */
  at?: string;
}

/** One phone on the list. */
export interface SuppressionEntry {
  phone: string;
  reason: string;
  source: SuppressionSource;
  /** ISO time the entry was made (for a keyword: the message's time). */
  at: string;
}

/** The list as read now; `refresh` reads what other processes added since. */
export interface SuppressionList {
  get(phone: string): SuppressionEntry | undefined;
  readonly size: number;
  entries(): IterableIterator<SuppressionEntry>;
  /** Reads the changes made since (by this process or another); cheap when there are none. */
  refresh(): Promise<void>;
}

/** What `suppress` did: the entries now in force that came from this call, and the phones already on the list. */
export interface SuppressResult {
  added: SuppressionEntry[];
  already: SuppressionEntry[];
}

export interface UnsuppressOptions {
  /** Remove only entries of this source (an opt-in keyword removes only a keyword's). */
  onlySource?: SuppressionSource;
  /** When (ISO); the store's clock when left out. */
  at?: string;
}

/** One change of the list, as a backend stores it. */
export type SuppressionChange = (
  | { op: 'add'; phone: string; reason: string; source: SuppressionSource; at: string }
  | { op: 'remove'; phone: string; only_source?: SuppressionSource; at: string }
) & {
  /** The company whose list it changes; absent in changes written before companies were kept (they count for every company). */
  company?: number;
};

/** The fold of the changes: the entries in force, by phone. */
export class SuppressionIndex {
  private readonly byPhone = new Map<string, SuppressionEntry>();
  /** The last opt-in keyword of each phone (epoch ms). */
  private readonly optInAt = new Map<string, number>();

  get size(): number {
    return this.byPhone.size;
  }

  get(phone: string): SuppressionEntry | undefined {
    return this.byPhone.get(phone);
  }

  entries(): IterableIterator<SuppressionEntry> {
    return this.byPhone.values();
  }

  clear(): void {
    this.byPhone.clear();
    this.optInAt.clear();
  }

  apply(change: SuppressionChange): void {
    const current = this.byPhone.get(change.phone);
    const at = Date.parse(change.at);
    if (change.op === 'add') {
      const entry: SuppressionEntry = { phone: change.phone, reason: change.reason, source: change.source, at: change.at };
      if (change.source === 'reply_keyword') {
        const optedIn = this.optInAt.get(change.phone);
        if (current === undefined && !(optedIn !== undefined && optedIn >= at)) this.byPhone.set(change.phone, entry);
      } else if (current === undefined || current.source === 'reply_keyword') {
        this.byPhone.set(change.phone, entry);
      }
      return;
    }
    if (change.only_source === undefined) {
      this.byPhone.delete(change.phone);
      return;
    }
    if (change.only_source === 'reply_keyword') this.optInAt.set(change.phone, Math.max(at, this.optInAt.get(change.phone) ?? at));
    if (current?.source === change.only_source && Date.parse(current.at) <= at) this.byPhone.delete(change.phone);
  }
}

/** The list a backend gives of its index; `refresh` reads the changes made since. */
export function suppressionListOf(index: SuppressionIndex, refresh: () => Promise<void>): SuppressionList {
  return {
    get: (phone) => index.get(phone),
    get size() {
      return index.size;
    },
    entries: () => index.entries(),
    refresh,
  };
}

/** A stored change read back, or undefined when it is not one (a torn or foreign record). */
export function readSuppressionChange(value: Record<string, unknown>): SuppressionChange | undefined {
  const { op, phone, at, company } = value;
  if (typeof phone !== 'string' || typeof at !== 'string' || Number.isNaN(Date.parse(at))) return undefined;
  const of = typeof company === 'number' && Number.isInteger(company) ? { company } : {};
  if (op === 'add') {
    const { reason, source } = value;
    if (typeof reason !== 'string' || !isSource(source)) return undefined;
    return { op, phone, reason, source, at, ...of };
  }
  if (op === 'remove') {
    const only = value.only_source;
    if (only !== undefined && !isSource(only)) return undefined;
    return { op, phone, ...(only !== undefined && { only_source: only }), at, ...of };
  }
  return undefined;
}

export function isSource(value: unknown): value is SuppressionSource {
  return typeof value === 'string' && (SUPPRESSION_SOURCES as readonly string[]).includes(value);
}
