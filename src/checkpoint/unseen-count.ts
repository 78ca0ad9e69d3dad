import type { ContactListing } from './listing.js';
import { unseenTest } from './unseen-test.js';

/**
 * How many of a listing's phones have no state: its numbers against a state's phone column, with no
 * index and no sort. Both are mostly in the same order (a run adds states as it reads the list), so
 * they are walked side by side: equal numbers pass at once, the others wait in two small sets until
 * their match comes along on the other side. The state's column may come in parts (read from a
 * snapshot as the walk goes). Pure.
 */

/**
 * A state's phone column as a whole array, or read part by part (`parts()`, called once for each
 * pass, gives its numbers in order, in pieces the caller may reuse): a reader that counts need not
 * hold a million numbers at once.
 */
export type PhoneNumbers = Float64Array | (() => Iterable<Float64Array>);

/**
 * The positions of `listed` (skipping those `skip` names: phones kept whole, counted by the caller)
 * whose number is neither in `mine` (a state's phone column, each number once; -1 for a row left
 * out) nor in `extra`.
 */
export function countMissing(listed: Float64Array, skip: ((i: number) => boolean) | undefined, mine: PhoneNumbers, extra: ReadonlySet<number>): number {
  let missing = 0;
  for (const count of missingNumbers(listed, skip, mine, extra).values()) missing += count;
  return missing;
}

/** The same numbers themselves, each with how many positions of `listed` hold it. */
export function missingNumbers(listed: Float64Array, skip: ((i: number) => boolean) | undefined, mine: PhoneNumbers, extra: ReadonlySet<number>): Map<number, number> {
  const parts = typeof mine === 'function' ? mine : () => [mine];
  /** Numbers of the listing not matched yet, with how many positions hold each. */
  const waitingListed = new Map<number, number>();
  /** Numbers of the state not matched yet. */
  const waitingMine = new Set<number>();
  const take = (i: number) => {
    const n = listed[i] ?? 0;
    if (!skip?.(i) && !waitingMine.delete(n)) waitingListed.set(n, (waitingListed.get(n) ?? 0) + 1);
  };
  let i = 0;
  for (const part of parts()) {
    for (let j = 0; j < part.length; ) {
      // A run of numbers the same on both sides passes at once, compared as bytes (a phone's number is never NaN).
      const same = skip === undefined ? Math.min(BLOCK, part.length - j, listed.length - i) : 0;
      if (same > 0 && sameNumbers(listed, i, part, j, same)) {
        i += same;
        j += same;
        continue;
      }
      for (const end = Math.min(part.length, j + BLOCK); j < end; j++) {
        const n = part[j] ?? 0;
        if (i < listed.length) {
          if (listed[i] === n && !skip?.(i)) {
            i += 1;
            continue;
          }
          take(i);
          i += 1;
        }
        if (!waitingListed.delete(n)) waitingMine.add(n);
      }
    }
  }
  for (; i < listed.length; i++) take(i);
  if (waitingListed.size === 0) return waitingListed;
  // A number the listing holds twice may have met its state at its first place: look the rest up once more.
  for (const part of parts()) {
    for (let k = 0; k < part.length && waitingListed.size > 0; k++) waitingListed.delete(part[k] ?? -1);
    if (waitingListed.size === 0) break;
  }
  for (const n of extra) waitingListed.delete(n);
  return waitingListed;
}

/** Numbers compared at once, as bytes, where both sides may hold the same run. */
const BLOCK = 4096;

/** Whether `a` from `i` and `b` from `j` hold the same `length` numbers, byte for byte. */
function sameNumbers(a: Float64Array, i: number, b: Float64Array, j: number, length: number): boolean {
  return Buffer.from(a.buffer, a.byteOffset + i * 8, length * 8).equals(Buffer.from(b.buffer, b.byteOffset + j * 8, length * 8));
}

/**
 * The positions of the listing's contacts whose number is in `unseen` (a state's missing numbers,
 * `missingNumbers`), ascending, with its phones kept whole that `has` does not hold: its contacts
 * with no state, in list order.
 */
export function* unseenPositions(listing: ContactListing, unseen: ReadonlySet<number>, has: (phone: string) => boolean): Generator<number> {
  const phones = listing.phoneColumn();
  const isUnseen = unseenTest(unseen);
  const odd = listing.hasOdd();
  for (let i = 0; i < phones.length; i++) {
    if (odd && listing.isOdd(i)) {
      if (!has(listing.phoneAt(i))) yield i;
    } else if (isUnseen(phones[i] ?? 0)) yield i;
  }
}
