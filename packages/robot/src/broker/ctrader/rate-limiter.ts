/**
 * A queue that lets at most `perSecond` sends through in any sliding window (a second and a
 * margin), in arrival order.
 * Nothing sleeps: a send that would exceed the limit waits in the queue and a single timer
 * releases it when the oldest send in the window leaves it.
 */
export class SlidingWindowQueue {
  private readonly sent: number[] = [];
  private readonly waiting: (() => void)[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly perSecond: number,
    /**
     * The window's length. Longer than a second by a margin, because the server counts requests
     * when they arrive: a request delayed on the way could otherwise share its window with one
     * sent a second later.
     */
    private readonly windowMs = 1000,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(perSecond >= 1)) throw new RangeError('perSecond must be at least 1');
  }

  /** Runs `send` now if the window allows it, else as soon as it does, after earlier ones. */
  schedule(send: () => void): void {
    this.waiting.push(send);
    this.drain();
  }

  get pending(): number {
    return this.waiting.length;
  }

  /** Drops what is waiting (the connection closed); the callers fail their own requests. */
  clear(): void {
    this.waiting.length = 0;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private drain(): void {
    if (this.timer !== undefined) return;
    for (;;) {
      const now = this.now();
      let oldest = this.sent[0];
      while (oldest !== undefined && now - oldest >= this.windowMs) {
        this.sent.shift();
        oldest = this.sent[0];
      }
      const next = this.waiting[0];
      if (next === undefined) return;
      if (oldest !== undefined && this.sent.length >= this.perSecond) {
        const wait = Math.max(1, Math.ceil(this.windowMs - (now - oldest)));
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.drain();
        }, wait);
        return;
      }
      this.waiting.shift();
      this.sent.push(now);
      next();
    }
  }
}
