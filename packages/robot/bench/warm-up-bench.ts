/**
 * What the signal model's warm-up at start costs (issue 36, decisions 140 and 149):
 * `npx tsx bench/warm-up-bench.ts [minutes ...]` learns that many minutes of simulated history at
 * 1-second quotes, ending at START (ISO-8601, default Wednesday 2026-11-25 15:00 UTC, every
 * category in session), as `startPaperTrading` does with `warmUp`, and prints the quotes learned
 * and the CPU time taken (`process.cpuUsage`, every thread of the process, so the collector's
 * too). Each figure is a fresh process's first run (no other warm-up before it in the process).
 *
 * `--before <git revision>` measures, in the same run, the signal model as that revision had it
 * (its `src/strategy/signal-model.ts`, on this tree's other files) next to this tree's, in
 * alternating order, `--rounds` times (default 2), and prints each figure's ratio to it. The
 * machine is shared: compare the ratios of one run, not the raw figures of different runs.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { InstrumentCatalogue } from '../src/instruments/catalogue';
import type { Strategy } from '../src/strategy/strategy';
import { warmUpStrategy } from '../src/strategy/warm-up';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const thisFile = fileURLToPath(import.meta.url);
const modelPath = 'packages/robot/src/strategy/signal-model.ts';

interface Figure {
  readonly minutes: number;
  readonly quotes: number;
  readonly instruments: number;
  readonly cpuMs: number;
}

/** One warm-up in this process: the model from `modelModule`, or this tree's. */
async function measure(minutes: number, modelModule: string | undefined): Promise<Figure> {
  const { SignalModel } = (await import(modelModule ?? '../src/strategy/signal-model')) as {
    SignalModel: new () => Strategy;
  };
  const to = Date.parse(process.env.START ?? '2026-11-25T15:00:00Z');
  const catalogue = new InstrumentCatalogue();
  const cpu = process.cpuUsage();
  const result = warmUpStrategy(new SignalModel(), catalogue, {
    seed: 2,
    from: to - minutes * 60_000,
    to,
    tickIntervalMs: 1000,
  });
  const used = process.cpuUsage(cpu);
  return {
    minutes,
    quotes: result.ticks,
    instruments: catalogue.instruments.length,
    cpuMs: (used.user + used.system) / 1000,
  };
}

/** A fresh process for one figure. */
function inChild(minutes: number, modelModule: string | undefined): Figure {
  const out = execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      thisFile,
      '--child',
      String(minutes),
      ...(modelModule ? ['--model', modelModule] : []),
    ],
    { cwd: path.resolve(benchDir, '..'), encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Figure;
}

/** The revision's signal model, written next to this tree's sources for the run. */
function modelAt(revision: string, dir: string): string {
  const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();
  const source = execFileSync('git', ['show', `${revision}:${modelPath}`], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 16 << 20,
  });
  const strategyDir = path.resolve(benchDir, '../src/strategy');
  const rewritten = source.replace(/from '(\.{1,2}\/[^']+)'/g, (_, specifier: string) => {
    const absolute = path.resolve(strategyDir, specifier);
    return `from '${path.relative(dir, absolute).split(path.sep).join('/')}'`;
  });
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'signal-model.ts');
  writeFileSync(file, rewritten);
  return file;
}

const cpuText = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      child: { type: 'boolean', default: false },
      model: { type: 'string' },
      before: { type: 'string' },
      rounds: { type: 'string', default: '2' },
    },
  });
  const minutes = (positionals.length > 0 ? positionals : ['10']).map(Number);
  if (minutes.some((m) => !(m > 0))) throw new Error('minutes must be positive numbers');
  if (values.child) {
    console.log(JSON.stringify(await measure(minutes[0] ?? 10, values.model)));
    return;
  }
  const end = new Date(Date.parse(process.env.START ?? '2026-11-25T15:00:00Z')).toISOString();
  if (!values.before) {
    for (const m of minutes) {
      const figure = inChild(m, undefined);
      console.log(
        `${String(m)} min of history before ${end}: ${String(figure.quotes)} quotes of ` +
          `${String(figure.instruments)} instruments, CPU ${figure.cpuMs.toFixed(0)} ms`,
      );
    }
    return;
  }
  const rounds = Math.max(1, Math.floor(Number(values.rounds)));
  const dir = path.join(benchDir, `.before-${values.before.replace(/[^\w.-]/g, '_')}`);
  try {
    const before = modelAt(values.before, dir);
    console.log(
      `Warm-up CPU before ${end}, 1-second quotes; before = ${values.before}'s signal model, after = this tree's`,
    );
    console.log('| history (min) | quotes | round | before | after | after / before |');
    console.log('| ---: | ---: | ---: | ---: | ---: | ---: |');
    for (let round = 1; round <= rounds; round++) {
      for (const m of minutes) {
        // Alternates which goes first, so that a change in the machine's load hits both.
        const first = round % 2 === 1 ? 'before' : 'after';
        const a = inChild(m, first === 'before' ? before : undefined);
        const b = inChild(m, first === 'before' ? undefined : before);
        const [was, now] = first === 'before' ? [a, b] : [b, a];
        console.log(
          `| ${String(m)} | ${String(now.quotes)} | ${String(round)} | ${cpuText(was.cpuMs)} | ${cpuText(now.cpuMs)} | ${(now.cpuMs / was.cpuMs).toFixed(2)} |`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
