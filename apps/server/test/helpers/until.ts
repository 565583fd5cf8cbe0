import { performance } from 'node:perf_hooks';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Checks every 100 ms until `check` holds; throws naming `what` after `timeoutMs`. */
export async function until(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}
