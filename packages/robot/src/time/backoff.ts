export interface Backoff {
  /** The first wait. */
  readonly firstMs: number;
  /** No wait is longer. */
  readonly capMs: number;
  /**
   * "Full jitter": a random wait up to the exponential one (never under half the first), so
   * that many clients retrying at once spread out.
   */
  readonly jitter?: boolean;
  /** A number in [0, 1); `Math.random` unless a test fixes it. */
  readonly random?: () => number;
}

/**
 * The wait before retry number `retry` (0 for the first retry) of an exponential backoff:
 * `firstMs` doubled on each retry, at most `capMs`. The one backoff rule of the product: the
 * paper platform's journal writes, the cTrader connection, the robot worker's restarts and the
 * simulated provider's webhook deliveries (issue 19).
 */
export function backoffDelay(retry: number, backoff: Backoff): number {
  const ceiling = Math.min(backoff.capMs, backoff.firstMs * 2 ** Math.max(0, retry));
  if (!backoff.jitter) return ceiling;
  return Math.max(backoff.firstMs / 2, (backoff.random ?? Math.random)() * ceiling);
}
