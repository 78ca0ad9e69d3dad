import type { SentContact } from './inbound.js';
import type { ContactListing } from './listing.js';
import { wholeRows, type StateRows } from './state-rows.js';
import { Tallies, type StateTally, type TallyOptions } from './state-tally.js';
import type { ContactStates } from './store.js';
import type { ContactState, ContactStatus } from './types.js';

/**
 * States kept as objects in a map (a few, or none), as the port's `ContactStates`: each capability
 * answered the general way, by reading the states. What a backend without a faster way gives, and
 * what a use case holding a map of its own passes on.
 */
export function statesOf(map: ReadonlyMap<string, ContactState>): ContactStates {
  return new MapStates(map);
}

class MapStates implements ContactStates {
  constructor(private readonly map: ReadonlyMap<string, ContactState>) {}

  get size(): number {
    return this.map.size;
  }

  readonly [Symbol.toStringTag] = 'MapStates';

  get(phone: string): ContactState | undefined {
    return this.map.get(phone);
  }

  has(phone: string): boolean {
    return this.map.has(phone);
  }

  forEach(callback: (value: ContactState, key: string, map: ReadonlyMap<string, ContactState>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.map) callback.call(thisArg, value, key, this);
  }

  entries(): MapIterator<[string, ContactState]> {
    return this.map.entries();
  }

  keys(): MapIterator<string> {
    return this.map.keys();
  }

  values(): MapIterator<ContactState> {
    return this.map.values();
  }

  [Symbol.iterator](): MapIterator<[string, ContactState]> {
    return this.map.entries();
  }

  statusOf(phone: string): ContactStatus | undefined {
    return this.map.get(phone)?.status;
  }

  listedStatus(listing: ContactListing): (position: number) => ContactStatus | undefined {
    return (i) => this.map.get(listing.phoneAt(i))?.status;
  }

  *sentEntries(): Generator<readonly [string, SentContact]> {
    for (const [phone, s] of this.map) {
      if (s.status === 'sent') yield [phone, { sentAt: s.sentAt, ...(s.clientId !== undefined && { clientId: s.clientId }), conversationId: s.conversationId }];
    }
  }

  countUnseen(listing: ContactListing): number {
    let unseen = 0;
    for (let i = 0; i < listing.size; i++) if (!this.map.has(listing.phoneAt(i))) unseen += 1;
    return unseen;
  }

  *unseenAt(listing: ContactListing): Generator<number> {
    for (let i = 0; i < listing.size; i++) if (!this.map.has(listing.phoneAt(i))) yield i;
  }

  tallies(options?: TallyOptions): StateTally[] {
    return new Tallies().list(this.map.values(), undefined, options);
  }

  reportRows(): StateRows {
    return wholeRows(this.map.values());
  }
}
