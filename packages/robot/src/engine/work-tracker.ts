/**
 * Counts the engine's asynchronous work (fan-outs, store writes) so that `idle` can wait for
 * it, and reports a failure instead of letting it go unnoticed.
 */
export class WorkTracker {
  private inflight = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly onFailure: (error: unknown) => void) {}

  /** Keeps a promise for `idle`. The handlers are shared rather than allocated per promise. */
  track(promise: Promise<unknown>): void {
    this.inflight++;
    void promise.then(this.settledOne, this.failedOne);
  }

  /** Resolves when every piece of work tracked so far has completed. */
  async idle(): Promise<void> {
    while (this.inflight > 0) {
      await new Promise<void>((resolve) => {
        this.idleWaiters.push(resolve);
      });
    }
  }

  private readonly settledOne = (): void => {
    if (--this.inflight > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  };

  private readonly failedOne = (error: unknown): void => {
    this.settledOne();
    this.onFailure(error);
  };
}
