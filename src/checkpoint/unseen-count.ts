import type { ContactListing, PhoneNumbers } from './listing.js';
import { unseenTest } from './unseen-test.js';

/**
 * How many of a listing's phones have no state: its numbers against a state's phone column, with no
 * index and no sort. Both are mostly in the same order (a run adds states as it reads the list), so
 * they are walked side by side: equal numbers pass at once, the others wait in two small sets until
 * their match comes along on the other side. Either side may come in parts (read from a snapshot or
 * a listing as the walk goes). Pure.
 */

function partsOf(numbers: PhoneNumbers): () => Iterable<Float64Array> {
  return typeof numbers === 'function' ? numbers : () => [numbers];
}

/**
 * The positions of `listed` (skipping those `skip` names: phones kept whole, counted by the caller)
 * whose number is neither in `mine` (a state's phone column, each number once; -1 for a row left
 * out) nor in `extra`.
 */
export function countMissing(listed: PhoneNumbers, skip: ((i: number) => boolean) | undefined, mine: PhoneNumbers, extra: ReadonlySet<number>): number {
  let missing = 0;
  for (const count of missingNumbers(listed, skip, mine, extra).values()) missing += count;
  return missing;
}

/** The same numbers themselves, each with how many positions of `listed` hold it. */
export function missingNumbers(listed: PhoneNumbers, skip: ((i: number) => boolean) | undefined, mine: PhoneNumbers, extra: ReadonlySet<number>): Map<number, number> {
  const mineParts = partsOf(mine);
  /** Numbers of the listing not matched yet, with how many positions hold each. */
  const waitingListed = new Map<number, number>();
  /** Numbers of the state not matched yet. */
  const waitingMine = new Set<number>();
  const take = (n: number, i: number) => {
    if (!skip?.(i) && !waitingMine.delete(n)) waitingListed.set(n, (waitingListed.get(n) ?? 0) + 1);
  };
  // The listing's numbers: the part `lp` read up to `li`, `i` the position of lp[li] in the listing.
  const listedParts = partsOf(listed)()[Symbol.iterator]();
  let lp: Float64Array = new Float64Array(0);
  let li = 0;
  let i = 0;
  /** Whether the listing has a number at `li` (the next part read when this one is done: the last read through to its end). */
  const more = (): boolean => {
    while (li === lp.length) {
      const next = listedParts.next();
      if (next.done === true) return false;
      lp = next.value;
      li = 0;
    }
    return true;
  };
  for (const part of mineParts()) {
    for (let j = 0; j < part.length; ) {
      // A run of numbers the same on both sides passes at once, compared as bytes (a phone's number is never NaN).
      const same = skip === undefined && more() ? Math.min(BLOCK, part.length - j, lp.length - li) : 0;
      if (same > 0 && sameNumbers(lp, li, part, j, same)) {
        li += same;
        i += same;
        j += same;
        continue;
      }
      for (const end = Math.min(part.length, j + BLOCK); j < end; j++) {
        const n = part[j] ?? 0;
        if (more()) {
          const l = lp[li] ?? 0;
          li += 1;
          i += 1;
          if (l === n && !skip?.(i - 1)) continue;
          take(l, i - 1);
        }
        if (!waitingListed.delete(n)) waitingMine.add(n);
      }
    }
  }
  for (; more(); li++, i++) take(lp[li] ?? 0, i);
  if (waitingListed.size === 0) return waitingListed;
  // A number the listing holds twice may have met its state at its first place: look the rest up once more.
  for (const part of mineParts()) {
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
