/**
 * The robot on recorded quotes (decisions 125 and 142), apart from the package's index: it reads
 * zips (yauzl), which only the processes that run a backtest need.
 */
export type { BacktestOptions, BacktestResult } from './run-backtest';
export { runBacktest } from './run-backtest';
export type { BacktestFigures } from './backtest-figures';
export { backtestFigures } from './backtest-figures';
