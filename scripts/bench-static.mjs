// npm run bench:static: the web app's largest script as browsers fetch it (Accept-Encoding
// br/gzip) against the same file without compression, in one run, so the ratio holds on a
// noisy shared machine. For reference, the same build without its .br/.gz copies (each
// response compressed on the fly, as before docs/decisions/054). Writes its section of
// docs/benchmarks.md.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import {
  root,
  serverDir,
  serverEnv,
  startServer,
  stopServer,
  summarize,
  writeBenchSection,
} from './bench-support.mjs';

const webDist = path.join(root, 'apps/web/dist');
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const browserEncoding = 'gzip, deflate, br, zstd';

function start(env) {
  return startServer(
    path.join(serverDir, 'dist/main.js'),
    serverEnv(env.DATA_DIR, { ROBOT_ENABLED: 'false', SEED_DEMO: 'false', ...env }),
  );
}

function measure(url, encoding, title) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        headers: encoding ? { 'accept-encoding': encoding } : {},
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
    ...summarize(result),
    kilobytesPerRequest: (
      result.throughput.total /
      Math.max(result.requests.total, 1) /
      1024
    ).toFixed(1),
  };
}

// The largest script is the one that costs most to compress per request.
const assets = await fs.readdir(path.join(webDist, 'assets'));
const scripts = await Promise.all(
  assets
    .filter((name) => name.endsWith('.js'))
    .map(async (name) => ({
      name,
      size: (await fs.stat(path.join(webDist, 'assets', name))).size,
    })),
);
const target = scripts.sort((a, b) => b.size - a.size)[0];
if (!target) throw new Error('no script in apps/web/dist/assets: run npm run build first');

// The same build without its compressed copies: what the server did before.
const plainDist = await fs.mkdtemp(path.join(os.tmpdir(), 'tradebot-bench-static-'));
await fs.cp(webDist, plainDist, {
  recursive: true,
  filter: (source) => !source.endsWith('.br') && !source.endsWith('.gz'),
});
const dataDirs = [
  await fs.mkdtemp(path.join(os.tmpdir(), 'tradebot-bench-')),
  await fs.mkdtemp(path.join(os.tmpdir(), 'tradebot-bench-')),
];
const built = await start({ DATA_DIR: dataDirs[0] });
const onTheFly = await start({ DATA_DIR: dataDirs[1], WEB_DIST_DIR: plainDist });
try {
  const url = (server) => `${server.url}/assets/${target.name}`;
  await measure(url(built), browserEncoding, 'warm-up');
  await measure(url(onTheFly), browserEncoding, 'warm-up');
  const identity = summary(await measure(url(built), undefined, 'identity'));
  const brotli = summary(await measure(url(built), browserEncoding, 'br'));
  const gzip = summary(await measure(url(built), 'gzip', 'gzip'));
  const before = summary(await measure(url(onTheFly), browserEncoding, 'on the fly'));
  const ratio = brotli.requestsPerSecond / identity.requestsPerSecond;
  const gzipRatio = gzip.requestsPerSecond / identity.requestsPerSecond;

  const row = (label, result) =>
    `| ${label} | ${result.requestsPerSecond} | ${result.p50} | ${result.p99} | ${result.kilobytesPerRequest} | ${result.errors} |`;
  const date = new Date().toISOString().slice(0, 10);
  const section = [
    '## Static files (`npm run bench:static`)',
    '',
    `Measured ${date} on this 2-core shared machine: autocannon, ${connections} connections, ` +
      `${duration} s each after a warm-up, \`GET /assets/${target.name}\` (the largest script, ` +
      `${(target.size / 1024).toFixed(0)} KB). The baseline is the same file sent uncompressed, ` +
      'measured in the same run; the last row is the same build without its .br/.gz copies, ' +
      'compressed on each request as before decision 054.',
    '',
    '| request | req/s | p50 (ms) | p99 (ms) | KB per response | errors |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    row('no Accept-Encoding (baseline)', identity),
    row(`\`${browserEncoding}\` (a browser): the build's .br`, brotli),
    row("`gzip`: the build's .gz", gzip),
    row(`\`${browserEncoding}\`, compressed per request (before)`, before),
    '',
    `**Ratio (compressed / uncompressed throughput): ${ratio.toFixed(2)} with brotli, ` +
      `${gzipRatio.toFixed(2)} with gzip (target: at least 0.8)**`,
  ].join('\n');

  await writeBenchSection('static', section);
  console.log(section);
  if ([identity, brotli, gzip, before].some((result) => result.errors > 0)) process.exitCode = 1;
  if (ratio < 0.8 || gzipRatio < 0.8) process.exitCode = 1;
} finally {
  await stopServer(built);
  await stopServer(onTheFly);
  for (const directory of [plainDist, ...dataDirs]) {
    await fs.rm(directory, { recursive: true, force: true });
  }
}
