import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { riskLevels } from '../risk/risk-profile';
import type { Cadence } from '../market-data/recorded-quote-feed';
import type { TimeRange } from '../market-data/recorded-quotes';
import { numberOption } from '../simulation/cli-options';
import { summarise } from '../simulation/simulation-summary';
import { writeOperations } from '../simulation/write-operations';
import { formatBacktest, runBacktest } from './run-backtest';

const dayMs = 86_400_000;
const dateOnly = /^\d{4}-\d{2}-\d{2}$/;
const cadences: Readonly<Record<string, Cadence>> = {
  quote: 'quote',
  '1s': 1000,
  '1min': 60_000,
};

/** A date (a whole UTC day) or an ISO-8601 time with its zone; `end` makes a date include its day. */
function parseDate(name: string, text: string, end: boolean): number {
  const time = Date.parse(text);
  if (Number.isNaN(time) || !(dateOnly.test(text) || /(Z|[+-]\d{2}:?\d{2})$/i.test(text))) {
    throw new Error(`--${name} must be a date (2014-05-05) or a UTC time (2014-05-05T13:00:00Z)`);
  }
  return end && dateOnly.test(text) ? time + dayMs : time;
}

/**
 * npm run backtest -- --quotes <dir> [--risk 1] [--cadence quote|1s|1min] [--from 2014-05-05]
 * [--to 2014-05-06] [--instruments EURUSD,XAUUSD] [--accounts 1] [--warm-up 0] [--out trades.jsonl]
 * --warm-up: minutes of the recorded quotes before --from the model learns from first, untraded
 * (decision 149); it needs --from.
 * Relative paths resolve against the directory npm was started from.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      quotes: { type: 'string' },
      risk: { type: 'string', default: '1' },
      cadence: { type: 'string', default: 'quote' },
      from: { type: 'string' },
      to: { type: 'string' },
      instruments: { type: 'string' },
      accounts: { type: 'string', default: '1' },
      'warm-up': { type: 'string', default: '0' },
      out: { type: 'string' },
    },
  });
  if (!values.quotes)
    throw new Error('--quotes <folder> is required (decision 125 has its format)');
  const risk = numberOption('risk', values.risk, 1);
  if (!riskLevels.some((level) => level === risk)) throw new Error('--risk must be 1 to 5');
  const cadence = cadences[values.cadence];
  if (cadence === undefined) throw new Error('--cadence must be quote, 1s or 1min');
  const range: TimeRange = {
    ...(values.from ? { from: parseDate('from', values.from, false) } : {}),
    ...(values.to ? { until: parseDate('to', values.to, true) } : {}),
  };
  const warmUpMinutes = numberOption('warm-up', values['warm-up'], 0);
  if (warmUpMinutes > 0 && !values.from) {
    throw new Error('--warm-up needs --from: the model learns from the quotes before it');
  }
  const base = process.env.INIT_CWD ?? process.cwd();
  const started = performance.now();
  const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
  let lastReport = 0;
  console.error(`Reading quotes from ${path.resolve(base, values.quotes)}`);
  const result = await runBacktest({
    quotes: path.resolve(base, values.quotes),
    risk,
    cadence,
    range,
    ...(values.instruments ? { instruments: values.instruments.split(',') } : {}),
    accounts: Math.floor(numberOption('accounts', values.accounts, 1)),
    warmUpMs: warmUpMinutes * 60_000,
    now: () => performance.now(),
    onProgress: ({ done, total, time }) => {
      const elapsed = performance.now() - started;
      if (elapsed < 3000 || elapsed - lastReport < 5000) return;
      lastReport = elapsed;
      console.error(
        `  ${((100 * done) / total).toFixed(0)}%: ${String(done)} of ${String(total)} quotes, at ${new Date(time).toISOString()}, ${seconds()} s`,
      );
    },
  });
  console.error(`Read and replayed in ${seconds()} s`);
  console.log(formatBacktest(summarise(result), result));
  if (values.out) {
    const outPath = await writeOperations(result, values.out);
    console.log(`Wrote ${String(result.trades.length)} operations to ${outPath}`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
