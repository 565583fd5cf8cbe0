// What the benchmark scripts share: starting a server process and reading its address,
// stopping it, autocannon's figures, and writing a section of docs/benchmarks.md.
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import * as prettier from 'prettier';

export const root = path.resolve(import.meta.dirname, '..');

/** Starts `script` (a path from the repository root) and resolves once it prints its address. */
export function startServerProcess(script, env = {}) {
  const child = spawn(process.execPath, [script], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve({ url: match[1], child });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}:\n${output}`)));
  });
}

export async function stopServerProcess(server) {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

/** Throughput, latency and errors of an autocannon result. */
export function summarize(result) {
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

/**
 * Puts `section` (between `<!-- bench:NAME:start -->` and `<!-- bench:NAME:end -->`) into
 * docs/benchmarks.md, replacing the previous run's, formatted as `npm run format:check`
 * expects so that a fresh result never turns CI red.
 */
export async function writeBenchmarkSection(name, section) {
  const file = path.join(root, 'docs/benchmarks.md');
  let text = await fs.readFile(file, 'utf8').catch(() => '# Benchmarks\n');
  const pattern = new RegExp(`<!-- bench:${name}:start -->[\\s\\S]*<!-- bench:${name}:end -->`);
  text = pattern.test(text) ? text.replace(pattern, section) : `${text.trimEnd()}\n\n${section}\n`;
  const prettierOptions = await prettier.resolveConfig(file);
  await fs.writeFile(file, await prettier.format(text, { ...prettierOptions, filepath: file }));
}
