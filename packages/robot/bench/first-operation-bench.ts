/**
 * When a fresh start on the simulator opens its first operation (issue 36, decision 149):
 * `npx tsx bench/first-operation-bench.ts [warm-up minutes ...]` starts the robot as the server
 * does on the simulator (`startPaperTrading`, 1-second quotes, the model warmed on that many
 * minutes of simulated history; 0 is a cold start), with one account trading every category at
 * risk 1, and steps the market a second at a time until the account's first operation opens, or
 * MAX_MINUTES (default 90) pass. It prints, per warm-up, the warm-up's CPU time and the minute of
 * the first operation. START (ISO-8601, default Wednesday 2026-11-25 15:00 UTC) and SEED
 * (default 1) choose the market. A simulated market: the figures say nothing about real ones.
 */
import { startPaperTrading } from '../src/engine/paper-trading-system';
import { CountingEventSink } from '../src/events/engine-events';
import { InMemoryExecutionStore } from '../src/execution/execution-store';
import { InMemoryAccountSettingsSource } from '../src/settings/robot-settings';
import { simulationSettings } from '../src/simulation/run-robot';
import { ManualClock } from '../src/time/clock';

const start = Date.parse(process.env.START ?? '2026-11-25T15:00:00Z');
const seed = Number(process.env.SEED ?? 1);
const maxMinutes = Number(process.env.MAX_MINUTES ?? 90);
const account = 'acct-0001';

async function firstOperation(warmUpMinutes: number): Promise<void> {
  const clock = new ManualClock(start);
  const settings = new InMemoryAccountSettingsSource();
  settings.set(account, simulationSettings(1));
  const cpu = process.cpuUsage();
  const system = await startPaperTrading({
    seed,
    clock,
    store: new InMemoryExecutionStore(),
    settings,
    events: new CountingEventSink(),
    tickIntervalMs: 1000,
    ...(warmUpMinutes > 0 ? { warmUp: { historyMs: warmUpMinutes * 60_000 } } : {}),
  });
  const used = process.cpuUsage(cpu);
  await system.broker.openAccount(account, 1_000_000);
  let opened: number | undefined;
  for (let t = start; t < start + maxMinutes * 60_000; t += 1000) {
    clock.set(t);
    system.market.advanceTo(t);
    await system.engine.idle();
    if (system.broker.openPositions(account).length > 0) {
      opened = t;
      break;
    }
  }
  system.engine.stop();
  console.log(
    `warm-up ${String(warmUpMinutes)} min (${String(system.warmUp?.ticks ?? 0)} quotes, CPU ${((used.user + used.system) / 1000).toFixed(0)} ms): ` +
      (opened === undefined
        ? `no operation within ${String(maxMinutes)} minutes`
        : `first operation at ${new Date(opened).toISOString()}, in minute ${String(Math.floor((opened - start) / 60_000) + 1)}`),
  );
}

const warmUps = (process.argv.length > 2 ? process.argv.slice(2) : ['10', '60']).map(Number);
for (const minutes of warmUps) await firstOperation(minutes);
