/**
 * First-wins dedupe on E.164 across every file of a load. A phone's digits are a whole
 * number below 2^53 (E.164 has at most 15 digits and never starts with 0), so the set is an
 * open-addressing hash table over two Float64Arrays: no object per phone, nothing for the
 * garbage collector to trace, 32 bytes a phone at most (a million phones: 32 MB).
 */
export class Dedupe {
  private keys = new Float64Array(1 << 16); // 0 marks an empty slot: no phone is 0
  // line × files + file index; a seeded place is stored as -(place + 1) until its row is read
  private places = new Float64Array(1 << 16);
  private count = 0;
  private readonly files: readonly string[];

  constructor(files: readonly string[]) {
    this.files = files;
  }

  /**
   * Records the phone; returns where it was first seen if it was, else undefined. A phone seeded at
   * this very row (`seed`) is this row's own: not a duplicate, once. Another row read at the same place
   * (entries of a JSON list written on one line share it) is a duplicate.
   */
  firstSeen(e164: string, fileIndex: number, line: number): { file: string; line: number } | undefined {
    const key = digitsOf(e164);
    const n = this.files.length;
    const keys = this.keys;
    const mask = keys.length - 1;
    const here = line * n + fileIndex;
    let i = hash(key) & mask;
    while (keys[i] !== 0) {
      if (keys[i] === key) {
        const stored = this.places[i]!;
        if (stored === -(here + 1)) {
          this.places[i] = here;
          return undefined;
        }
        const place = stored < 0 ? -stored - 1 : stored;
        const file = place % n;
        return { file: this.files[file]!, line: (place - file) / n };
      }
      i = (i + 1) & mask;
    }
    this.insert(i, key, here);
    return undefined;
  }

  /**
   * Records a phone (its digits as a number, `+5511…` → 5511…) as first seen at a row that is not
   * read again: a row read later with it is its duplicate. The first seeding of a phone wins.
   */
  seed(digits: number, fileIndex: number, line: number): void {
    const keys = this.keys;
    const mask = keys.length - 1;
    let i = hash(digits) & mask;
    while (keys[i] !== 0) {
      if (keys[i] === digits) return;
      i = (i + 1) & mask;
    }
    this.insert(i, digits, -(line * this.files.length + fileIndex + 1));
  }

  private insert(slot: number, key: number, place: number): void {
    this.keys[slot] = key;
    this.places[slot] = place;
    if (++this.count * 2 > this.keys.length) this.grow();
  }

  get size(): number {
    return this.count;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldPlaces = this.places;
    this.keys = new Float64Array(oldKeys.length * 2);
    this.places = new Float64Array(oldKeys.length * 2);
    const mask = this.keys.length - 1;
    for (let j = 0; j < oldKeys.length; j++) {
      const key = oldKeys[j]!;
      if (key === 0) continue;
      let i = hash(key) & mask;
      while (this.keys[i] !== 0) i = (i + 1) & mask;
      this.keys[i] = key;
      this.places[i] = oldPlaces[j]!;
    }
  }
}

/** "+5511987654321" → 5511987654321, exact. */
function digitsOf(e164: string): number {
  let n = 0;
  for (let i = 1; i < e164.length; i++) n = n * 10 + (e164.charCodeAt(i) - 48);
  return n;
}

function hash(key: number): number {
  const lo = key >>> 0; // key mod 2^32
  const hi = Math.floor(key / 4294967296);
  let h = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
