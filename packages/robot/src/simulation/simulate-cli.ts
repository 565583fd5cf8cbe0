import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { numberOption } from './cli-options';
import { runSimulation } from './run-simulation';
import { formatSummary, summarise } from './simulation-summary';
import { writeOperations } from './write-operations';

/**
 * npm run simulate -- --accounts 25 --days 5 --seed 1 --risk 1 --out trades.jsonl
 * Relative --out paths resolve against the directory npm was started from.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      accounts: { type: 'string', default: '25' },
      days: { type: 'string', default: '5' },
      seed: { type: 'string', default: '1' },
      risk: { type: 'string', default: '1' },
      out: { type: 'string', default: 'trades.jsonl' },
      start: { type: 'string' },
    },
  });
  const number = numberOption;
  const options = {
    accounts: Math.floor(number('accounts', values.accounts, 1)),
    days: number('days', values.days, 0.01),
    seed: Math.floor(number('seed', values.seed, 0)),
    risk: number('risk', values.risk, 1),
    ...(values.start ? { startTime: Date.parse(values.start) } : {}),
  };
  const result = await runSimulation(options, () => performance.now());
  const outPath = await writeOperations(result, values.out);
  console.log(formatSummary(summarise(result), result));
  console.log(`Wrote ${result.trades.length} operations to ${outPath}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
