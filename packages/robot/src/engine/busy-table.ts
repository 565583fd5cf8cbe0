/**
 * Open positions and pending orders per instrument and account, for the risk gate's "one
 * operation per instrument" rule. Accounts have dense slot numbers, and each instrument a column
 * of counts indexed by slot, so a tick's fan-out reads one typed array front to back instead of
 * one hash map per account (decision 025).
 */
export class BusyTable {
  private readonly columns = new Map<string, Uint16Array>();
  private capacity: number;
  private nextSlot = 0;
  private readonly freeSlots: number[] = [];

  constructor(initialCapacity = 1024) {
    this.capacity = Math.max(1, initialCapacity);
  }

  /** A slot for a new account; a released slot is reused with its counts at zero. */
  allocateSlot(): number {
    const reused = this.freeSlots.pop();
    if (reused !== undefined) return reused;
    const slot = this.nextSlot++;
    if (slot >= this.capacity) this.grow(this.capacity * 2);
    return slot;
  }

  /** Forgets an account: its counts go back to zero and its slot can be reused. */
  releaseSlot(slot: number): void {
    for (const column of this.columns.values()) column[slot] = 0;
    this.freeSlots.push(slot);
  }

  /**
   * The counts of one instrument, or undefined while nothing was ever open on it. The array is
   * replaced when the table grows: read it again after anything that can add an account.
   */
  column(symbol: string): Uint16Array | undefined {
    return this.columns.get(symbol);
  }

  increment(symbol: string, slot: number): void {
    let column = this.columns.get(symbol);
    if (!column) {
      column = new Uint16Array(this.capacity);
      this.columns.set(symbol, column);
    }
    const count = column[slot] ?? 0;
    // Far beyond what the gate allows (one per instrument); a wrap to zero would free it.
    if (count === 0xffff) throw new RangeError(`Too many operations on ${symbol}`);
    column[slot] = count + 1;
  }

  decrement(symbol: string, slot: number): void {
    const column = this.columns.get(symbol);
    const count = column?.[slot] ?? 0;
    if (column && count > 0) column[slot] = count - 1;
  }

  private grow(capacity: number): void {
    for (const [symbol, column] of this.columns) {
      const larger = new Uint16Array(capacity);
      larger.set(column);
      this.columns.set(symbol, larger);
    }
    this.capacity = capacity;
  }
}
