import fs from 'node:fs/promises';

interface CpuTimes {
  busy: number;
  total: number;
}

async function readCpuTimes(): Promise<CpuTimes> {
  const line = (await fs.readFile('/proc/stat', 'utf8')).split('\n')[0] ?? '';
  const fields = line.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal: idle and iowait are the idle time.
  const total = fields.slice(0, 8).reduce((sum, value) => sum + value, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { busy: total - idle, total };
}

/** Starts a reading of the machine's CPU; `busy()` is the share of all cores used since. */
export async function cpuMeter(): Promise<{ busy(): Promise<number> }> {
  const start = await readCpuTimes();
  return {
    async busy() {
      const end = await readCpuTimes();
      const total = end.total - start.total;
      return total > 0 ? (end.busy - start.busy) / total : 0;
    },
  };
}

/**
 * Waits until the machine's cores are mostly idle (other work on a shared machine comes in
 * bursts), sampling every half second, for `timeoutMs` at most. Resolves the last share seen.
 */
export async function waitForQuietCpu(maxBusy = 0.15, timeoutMs = 30_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const meter = await cpuMeter();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const busy = await meter.busy();
    if (busy <= maxBusy || Date.now() >= deadline) return busy;
  }
}
