/**
 * The backtest's "2 million quotes in under a minute" (issue 36), measured against a baseline in
 * the same run (decision 161; docs/benchmarks.md).
 *
 *   npm run bench:backtest -- [quotes, 2000000] [rounds, 2]
 *   npm run bench:backtest -- --write <folder> [quotes, 2000000]   (only writes the file)
 *
 * Writes one generated EURUSD.csv (the documented format: `time,bid,ask`, epoch milliseconds,
 * a seeded random walk every 200 ms from Monday 2014-05-05 00:00 UTC, one pip of spread) to a
 * temporary folder, then, in fresh processes, alternating, each round:
 * - baseline: the same folder read (`readQuoteFolder`) and replayed through `RecordedQuoteFeed`
 *   to a listener that only counts: everything a backtest does but the robot;
 * - backtest: `runBacktest` on the folder, every quote, risk 1, one account: what
 *   `npm run backtest -- --quotes <folder>` runs.
 * Each process reports its own wall clock and CPU (user + system) from start to end.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { runBacktest } from '../src/backtest/run-backtest';
import { InstrumentCatalogue } from '../src/instruments/catalogue';
import { RecordedQuoteFeed } from '../src/market-data/recorded-quote-feed';
import { readQuoteFolder } from '../src/market-data/recorded-quotes';
import { createSeededRandom, GaussianSampler } from '../src/random/random-source';

interface Measured {
  readonly mode: string;
  readonly quotes: number;
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly maxRssMb: number;
  readonly operations?: number;
}

async function generate(folder: string, quotes: number): Promise<void> {
  const out = createWriteStream(path.join(folder, 'EURUSD.csv'));
  const gauss = new GaussianSampler(createSeededRandom(36));
  let mid = 1.3875;
  let time = Date.parse('2014-05-05T00:00:00Z');
  out.write('time,bid,ask\n');
  let chunk = '';
  for (let i = 0; i < quotes; i++) {
    // About 0.5% a day over 432,000 steps of 200 ms.
    mid += 1.06e-5 * gauss.next();
    chunk += `${String(time)},${(mid - 0.00005).toFixed(5)},${(mid + 0.00005).toFixed(5)}\n`;
    time += 200;
    if (chunk.length > 1 << 16) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}

async function measure(mode: string, folder: string): Promise<Measured> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  let quotes = 0;
  let operations: number | undefined;
  if (mode === 'baseline') {
    const { series } = await readQuoteFolder(folder, new InstrumentCatalogue());
    const feed = new RecordedQuoteFeed(series, 'quote');
    feed.subscribe(() => {
      quotes++;
    });
    for (let t = feed.nextTime(); t !== undefined; t = feed.nextTime()) feed.advanceTo(t);
  } else {
    const result = await runBacktest({ quotes: folder, risk: 1, cadence: 'quote' });
    quotes = result.ticks;
    operations = result.trades.length;
  }
  const used = process.cpuUsage(cpu);
  return {
    mode,
    quotes,
    wallMs: Math.round(performance.now() - started),
    cpuMs: Math.round((used.user + used.system) / 1000),
    maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    ...(operations === undefined ? {} : { operations }),
  };
}

function child(mode: string, folder: string): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), '--child', mode, folder],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.on('error', reject);
    proc.on('close', (code) => {
      if (code !== 0) reject(new Error(`${mode} exited with ${String(code)}`));
      else resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Measured);
    });
  });
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--child') {
    console.log(JSON.stringify(await measure(args[1] ?? '', args[2] ?? '')));
    return;
  }
  if (args[0] === '--write') {
    // Only the file, kept: `npm run backtest -- --quotes <folder>` on it.
    const folder = path.resolve(process.env.INIT_CWD ?? process.cwd(), args[1] ?? '.');
    await fs.mkdir(folder, { recursive: true });
    await generate(folder, Number(args[2] ?? 2_000_000));
    console.error(`Wrote ${path.join(folder, 'EURUSD.csv')}`);
    return;
  }
  const quotes = Number(args[0] ?? 2_000_000);
  const rounds = Number(args[1] ?? 2);
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'backtest-bench-'));
  try {
    await generate(folder, quotes);
    console.error(
      `Generated ${String(quotes)} quotes in ${folder}/EURUSD.csv; load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(', ')}`,
    );
    console.log('| round | mode | quotes | wall clock | CPU | max RSS | operations |');
    console.log('| ---: | --- | ---: | ---: | ---: | ---: | ---: |');
    for (let round = 1; round <= rounds; round++) {
      const measured: Measured[] = [];
      for (const mode of ['baseline', 'backtest']) {
        const m = await child(mode, folder);
        measured.push(m);
        console.log(
          `| ${String(round)} | ${m.mode} | ${m.quotes.toLocaleString('en')} | ${(m.wallMs / 1000).toFixed(1)} s | ${(m.cpuMs / 1000).toFixed(1)} s | ${String(m.maxRssMb)} MB | ${m.operations === undefined ? '' : String(m.operations)} |`,
        );
      }
      const [base, full] = measured;
      if (base && full) {
        console.log(
          `| ${String(round)} | ratio backtest / baseline | | ${(full.wallMs / base.wallMs).toFixed(2)} | ${(full.cpuMs / base.cpuMs).toFixed(2)} | | |`,
        );
      }
    }
    console.error(
      `load average at the end ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(', ')}`,
    );
  } finally {
    await fs.rm(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
