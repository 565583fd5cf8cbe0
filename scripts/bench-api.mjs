// npm run bench: our real API route against a bare Fastify route, in one run, so the
// ratio holds on a noisy shared machine. Writes its section of docs/benchmarks.md.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import {
  startServerProcess,
  stopServerProcess,
  summarize,
  writeBenchmarkSection,
} from './bench-support.mjs';

const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);

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

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tradebot-bench-'));
const api = await startServerProcess('apps/server/dist/main.js', {
  HOST: '127.0.0.1',
  PORT: '0',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  DATABASE_URL: '',
});
const bare = await startServerProcess('apps/server/scripts/bench-bare-server.mjs');
try {
  const route = '/core-api/public/api/v1/country-code';
  // Warm both up so that JIT and first-request costs do not count.
  await measure(`${api.url}${route}`, 'warm-up');
  await measure(`${bare.url}/bare`, 'warm-up');
  const ours = summarize(await measure(`${api.url}${route}`, 'country-code'));
  const baseline = summarize(await measure(`${bare.url}/bare`, 'bare'));
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

  await writeBenchmarkSection('api', section);
  console.log(section);
  if (ours.errors > 0 || baseline.errors > 0) process.exitCode = 1;
} finally {
  await stopServerProcess(api);
  await stopServerProcess(bare);
  await fs.rm(dataDir, { recursive: true, force: true });
}
