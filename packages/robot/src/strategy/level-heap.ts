/**
 * A binary min-heap of items by a numeric key (decision 149): the signal model keeps each side's
 * undecided virtual trades by take-profit and by stop-loss level, so a tick finds the trades it
 * decides without visiting the others. A max-heap is this one on negated keys (negation is exact,
 * so `-a <= -b` exactly when `a >= b`). Keys must not be NaN: the caller leaves out what can never
 * be reached. Equal keys come out in no particular order.
 */
export class LevelHeap<T> {
  private keys: number[] = [];
  private items: T[] = [];

  get size(): number {
    return this.items.length;
  }

  /** The smallest key; Infinity when empty. */
  peekKey(): number {
    return this.keys[0] ?? Infinity;
  }

  push(key: number, item: T): void {
    const keys = this.keys;
    const items = this.items;
    let i = items.length;
    keys.push(key);
    items.push(item);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const parentKey = keys[parent] ?? -Infinity;
      if (parentKey <= key) break;
      keys[i] = parentKey;
      items[i] = items[parent] as T;
      i = parent;
    }
    keys[i] = key;
    items[i] = item;
  }

  /** Takes out the item of the smallest key; undefined when empty. */
  pop(): T | undefined {
    const keys = this.keys;
    const items = this.items;
    const top = items[0];
    const lastKey = keys.pop();
    const lastItem = items.pop();
    if (lastKey === undefined || lastItem === undefined || items.length === 0) return top;
    this.siftDown(0, lastKey, lastItem);
    return top;
  }

  /** Keeps only the items `keep` accepts, in linear time. */
  retain(keep: (item: T) => boolean): void {
    const keys: number[] = [];
    const items: T[] = [];
    for (let i = 0; i < this.items.length; i++) {
      const item = this.items[i] as T;
      if (!keep(item)) continue;
      keys.push(this.keys[i] ?? Infinity);
      items.push(item);
    }
    this.keys = keys;
    this.items = items;
    for (let i = (items.length >> 1) - 1; i >= 0; i--) {
      this.siftDown(i, keys[i] ?? Infinity, items[i] as T);
    }
  }

  clear(): void {
    this.keys = [];
    this.items = [];
  }

  /** Places `key`/`item` at `i` or below it, moving smaller children up. */
  private siftDown(start: number, key: number, item: T): void {
    const keys = this.keys;
    const items = this.items;
    const length = items.length;
    let i = start;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= length) break;
      let childKey = keys[child] ?? Infinity;
      const right = child + 1;
      if (right < length) {
        const rightKey = keys[right] ?? Infinity;
        if (rightKey < childKey) {
          child = right;
          childKey = rightKey;
        }
      }
      if (key <= childKey) break;
      keys[i] = childKey;
      items[i] = items[child] as T;
      i = child;
    }
    keys[i] = key;
    items[i] = item;
  }
}
