// npm test's two lanes (decision 094): `test:server` and `test:rest` run at once, each writing
// to its own file, and each lane's output is printed whole once both have ended, server first.
//
// Files, not pipes: Vitest's last lines (its "Tests N passed" summary, and a failure's details)
// were lost when its output went through a pipe its reader drained slowly. npm-run-all2's
// --aggregate-output (mysticatea/npm-run-all#161) and concurrently's --group both cut the server
// lane's output at 64 KiB on this machine. A write to a file is never left pending at exit.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const lanes = ['test:server', 'test:rest'];
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tradebot-test-lanes-'));
// The npm that runs this script, so that both lanes use the same one.
const npm = process.env.npm_execpath
  ? { command: process.execPath, args: [process.env.npm_execpath] }
  : { command: 'npm', args: [] };

/** Runs one lane with its output in a file; resolves with how it ended. */
function runLane(script) {
  const file = path.join(folder, `${script.replace(':', '-')}.log`);
  const output = fs.openSync(file, 'w');
  const started = Date.now();
  const child = spawn(npm.command, [...npm.args, 'run', script], {
    stdio: ['ignore', output, output],
  });
  fs.closeSync(output);
  return new Promise((resolve) => {
    const end = (code, cause) =>
      resolve({ script, file, code, cause, seconds: Math.round((Date.now() - started) / 1000) });
    child.on('error', (error) => end(1, error.message));
    child.on('exit', (code, signal) => end(code ?? 1, signal ? `signal ${signal}` : undefined));
  });
}

const results = await Promise.all(lanes.map(runLane));
for (const result of results) {
  process.stdout.write(fs.readFileSync(result.file));
  const how = result.code === 0 ? 'passed' : `failed (exit ${String(result.code)})`;
  const cause = result.cause ? `, ${result.cause}` : '';
  process.stdout.write(
    `\n::: lane ${result.script} ${how} in ${String(result.seconds)} s${cause}\n\n`,
  );
}
fs.rmSync(folder, { recursive: true, force: true });
process.exitCode = results.every((result) => result.code === 0) ? 0 : 1;
