// npm test's two lanes (decision 094): each lane runs its steps one after the other, the two
// lanes at once, each step writing to its own file; every step's output is printed whole once
// both lanes have ended, in the order of the lanes.
//
// Lane one: the server's unit tests and its integration tests on PGlite, then typecheck and
// lint. Lane two: the other workspaces' tests and the build, then the server's integration tests
// on PostgreSQL (when TEST_DATABASE_URL is set). Each lane is one busy process at a time, so the
// machine's two cores are both used until the end, where one server run used to leave a core
// idle for its last 15 minutes (decision 094, amended 2026-11-26 (3)).
//
// Files, not pipes: Vitest's last lines (its "Tests N passed" summary, and a failure's details)
// were lost when its output went through a pipe its reader drained slowly. npm-run-all2's
// --aggregate-output (mysticatea/npm-run-all#161) and concurrently's --group both cut the server
// lane's output at 64 KiB on this machine. A write to a file is never left pending at exit.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const lanes = [
  ['test:server:pglite', 'test:static'],
  ['test:workspaces', ...(process.env.TEST_DATABASE_URL ? ['test:server:postgres'] : [])],
];
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tradebot-test-lanes-'));
// The npm that runs this script, so that every step uses the same one.
const npm = process.env.npm_execpath
  ? { command: process.execPath, args: [process.env.npm_execpath] }
  : { command: 'npm', args: [] };

/** Runs one step with its output in a file; resolves with how it ended. */
function runStep(script) {
  const file = path.join(folder, `${script.replaceAll(':', '-')}.log`);
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

/** A lane's steps in turn; a step that fails does not stop the next, so every failure shows. */
async function runLane(steps) {
  const results = [];
  for (const script of steps) results.push(await runStep(script));
  return results;
}

const results = (await Promise.all(lanes.map(runLane))).flat();
for (const result of results) {
  process.stdout.write(fs.readFileSync(result.file));
  const how = result.code === 0 ? 'passed' : `failed (exit ${String(result.code)})`;
  const cause = result.cause ? `, ${result.cause}` : '';
  process.stdout.write(
    `\n::: step ${result.script} ${how} in ${String(result.seconds)} s${cause}\n\n`,
  );
}
fs.rmSync(folder, { recursive: true, force: true });
process.exitCode = results.every((result) => result.code === 0) ? 0 : 1;
