import { createWriteStream } from 'node:fs';
import { toOperationLine } from './operation-line';
import type { RobotRun } from './run-robot';

/**
 * Writes a run's operations as JSONL, one OperationLine each, and returns the path written.
 * A relative path resolves against the directory npm was started from.
 */
export async function writeOperations(run: RobotRun, out: string): Promise<string> {
  const base = process.env.INIT_CWD ?? process.cwd();
  const outPath = out.startsWith('/') ? out : `${base}/${out}`;
  const stream = createWriteStream(outPath);
  for (const trade of run.trades) {
    stream.write(
      `${JSON.stringify(toOperationLine(trade, run.openMarks.get(trade.positionId)))}\n`,
    );
  }
  await new Promise<void>((resolve, reject) => {
    stream.end(() => {
      resolve();
    });
    stream.on('error', reject);
  });
  return outPath;
}
