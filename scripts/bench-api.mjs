// npm run bench: our real API route against a bare Fastify route, in one run, so the
// ratio holds on a noisy shared machine. Writes its section of docs/benchmarks.md.
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import * as prettier from 'prettier';

const root = path.resolve(import.meta.dirname, '..');
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);

function start(script, env = {}) {
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

async function stop(server) {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

function measure(url, title) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
        connections,
        duration,
        title,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

function summary(result) {
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tradebot-bench-'));
const api = await start('apps/server/dist/main.js', {
  HOST: '127.0.0.1',
  PORT: '0',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  DATABASE_URL: '',
});
const bare = await start('apps/server/scripts/bench-bare-server.mjs');
try {
  const route = '/core-api/public/api/v1/country-code';
  // Warm both up so that JIT and first-request costs do not count.
  await measure(`${api.url}${route}`, 'warm-up');
  await measure(`${bare.url}/bare`, 'warm-up');
  const ours = summary(await measure(`${api.url}${route}`, 'country-code'));
  const baseline = summary(await measure(`${bare.url}/bare`, 'bare'));
  const ratio = ours.requestsPerSecond / baseline.requestsPerSecond;

  const date = new Date().toISOString().slice(0, 10);
  const section = [
    '<!-- bench:api:start -->',
    '## API (`npm run bench`)',
    '',
    `Measured ${date} on this 2-core shared machine: autocannon, ${connections} connections, ` +
      `${duration} s per route after a warm-up, POST with body \`{}\`. The baseline is a bare ` +
      'Fastify 5 route answering the same JSON, measured in the same run.',
    '',
    '| route | req/s | p50 (ms) | p99 (ms) | errors |',
    '| --- | ---: | ---: | ---: | ---: |',
    `| \`POST ${route}\` (full app: validation, geo lookup, logging, compression hook) | ${ours.requestsPerSecond} | ${ours.p50} | ${ours.p99} | ${ours.errors} |`,
    `| bare Fastify \`POST /bare\` (baseline) | ${baseline.requestsPerSecond} | ${baseline.p50} | ${baseline.p99} | ${baseline.errors} |`,
    '',
    `**Ratio (ours / baseline throughput): ${ratio.toFixed(2)}**`,
    '<!-- bench:api:end -->',
  ].join('\n');

  const file = path.join(root, 'docs/benchmarks.md');
  let text = await fs.readFile(file, 'utf8').catch(() => '# Benchmarks\n');
  const pattern = /<!-- bench:api:start -->[\s\S]*<!-- bench:api:end -->/;
  text = pattern.test(text) ? text.replace(pattern, section) : `${text.trimEnd()}\n\n${section}\n`;
  // Formatted as `npm run format:check` expects, so a fresh result never turns CI red.
  const prettierOptions = await prettier.resolveConfig(file);
  await fs.writeFile(file, await prettier.format(text, { ...prettierOptions, filepath: file }));
  console.log(section);
  if (ours.errors > 0 || baseline.errors > 0) process.exitCode = 1;
} finally {
  await stop(api);
  await stop(bare);
  await fs.rm(dataDir, { recursive: true, force: true });
}
