/**
 * A set of numbers asked about a million times, mostly for numbers it does not hold (the listing's
 * numbers against the few the state has not seen): a bitmap of the numbers' low bits answers most
 * of those at once, the set only the rest. Pure.
 */
export function unseenTest(unseen: ReadonlySet<number>): (n: number) => boolean {
  if (unseen.size === 0) return () => false;
  const bits = new Uint8Array(BITS / 8);
  for (const n of unseen) {
    const b = bitOf(n);
    bits[b >>> 3] = (bits[b >>> 3] ?? 0) | (1 << (b & 7));
  }
  return (n) => {
    const b = bitOf(n);
    return ((bits[b >>> 3] ?? 0) & (1 << (b & 7))) !== 0 && unseen.has(n);
  };
}

/** 2^20 bits (128 KB): a few per cent of false hits for tens of thousands of numbers. */
const BITS = 1 << 20;

/** A number's bit: its remainder by the bitmap's size (any number, whole or not, gives one in range). */
function bitOf(n: number): number {
  const r = n % BITS;
  return r >= 0 && r < BITS ? Math.floor(r) : 0;
}
