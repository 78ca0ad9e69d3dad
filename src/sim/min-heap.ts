/** A binary min-heap by `at`, ties in insertion order: the due delivery-status changes, earliest first. */
export class MinHeap<T extends { at: number }> {
  private readonly items: Array<{ value: T; seq: number }> = [];
  private seq = 0;

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0]?.value;
  }

  push(value: T): void {
    const items = this.items;
    items.push({ value, seq: this.seq++ });
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined || items.length === 0) return top?.value;
    items[0] = last;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < items.length && this.before(left, smallest)) smallest = left;
      if (right < items.length && this.before(right, smallest)) smallest = right;
      if (smallest === i) break;
      this.swap(i, smallest);
      i = smallest;
    }
    return top.value;
  }

  private before(a: number, b: number): boolean {
    const x = this.items[a];
    const y = this.items[b];
    if (x === undefined || y === undefined) return false;
    return x.value.at < y.value.at || (x.value.at === y.value.at && x.seq < y.seq);
  }

  private swap(a: number, b: number): void {
    const items = this.items;
    const x = items[a];
    const y = items[b];
    if (x === undefined || y === undefined) return;
    items[a] = y;
    items[b] = x;
  }
}
