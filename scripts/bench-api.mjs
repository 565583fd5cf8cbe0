// npm run bench: our real API route against a bare Fastify route, in one run, so the
// ratio holds on a noisy shared machine. Writes its section of docs/benchmarks.md.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import {
  autocannonRun,
  summarize,
  root,
  serverDir,
  serverEnv,
  startServer,
  stopServer,
  writeBenchSection,
} from './bench-support.mjs';

const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);

function measure(url, title, options = {}) {
  return autocannonRun({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
    connections,
    duration,
    title,
    ...options,
  });
}

// Logins against argon2's ceiling, and an authenticated read (issue 11). The server runs
// behind one trusted proxy hop (TRUST_PROXY=1): each request names its own client address
// and its own account, so that the rate limits stay out of the way of the measurement.
const loginAccounts = 500;
const benchPassword = 'bench-password-1';
const clientAddress = (index) => `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;

/** The server's argon2id parameters, read from its source so that the ceiling uses the same. */
async function argon2Options() {
  const source = await fs.readFile(
    path.join(root, 'apps/server/src/repositories/password-hasher.ts'),
    'utf8',
  );
  const match = /memoryCost: ([\d_]+), timeCost: (\d+), parallelism: (\d+)/.exec(source);
  if (!match) throw new Error('argon2 parameters not found in password-hasher.ts');
  const [memoryCost, timeCost, parallelism] = match.slice(1).map((n) => Number(n.replace('_', '')));
  return { algorithm: 2, memoryCost, timeCost, parallelism };
}

/** argon2id verifications per second, `concurrency` at a time, in a process of their own. */
function argon2PerSecond(options, concurrency, seconds) {
  const script = `
    import { hash, verify } from '@node-rs/argon2';
    const [options, concurrency, seconds] = JSON.parse(process.argv[1]);
    const encoded = await hash('${benchPassword}', options);
    let done = 0;
    const end = Date.now() + seconds * 1000;
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) { await verify(encoded, '${benchPassword}'); done++; }
    }));
    console.log(done / seconds);`;
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', script, JSON.stringify([options, concurrency, seconds])],
    { cwd: path.join(root, 'apps/server'), stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) =>
      code === 0 ? resolve(Number(output.trim())) : reject(new Error(`argon2 bench: ${code}`)),
    );
  });
}

async function post(url, body, address) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** Registers the login accounts (8 at a time) and answers one session token. */
async function registerLoginAccounts(url) {
  let next = 0;
  const tokens = [];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < loginAccounts) {
        const index = next++;
        const answer = await post(
          `${url}/core-api/public/api/v1/register`,
          {
            name: 'Bench',
            last_name: 'User',
            email: `bench${index}@example.com`,
            password: benchPassword,
            confirm_password: benchPassword,
            accept_terms: true,
          },
          clientAddress(100_000 + index),
        );
        tokens.push(answer.data.token);
      }
    }),
  );
  return tokens[0];
}

/** Each login a different account and client address, the accounts in turn. */
function loginRequests(url) {
  let sent = 0;
  return {
    url: `${url}/core-api/public/api/v1/login`,
    requests: [
      {
        method: 'POST',
        setupRequest: (request) => {
          const index = sent++;
          return {
            ...request,
            headers: {
              ...request.headers,
              'content-type': 'application/json',
              'x-forwarded-for': clientAddress(index),
            },
            body: JSON.stringify({
              email: `bench${index % loginAccounts}@example.com`,
              password: benchPassword,
            }),
          };
        },
      },
    ],
  };
}

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tradebot-bench-'));
const api = await startServer(path.join(serverDir, 'dist/main.js'), serverEnv(dataDir));
const bare = await startServer(path.join(serverDir, 'scripts/bench-bare-server.mjs'));
try {
  const route = '/core-api/public/api/v1/country-code';
  // Warm both up so that JIT and first-request costs do not count.
  await measure(`${api.url}${route}`, 'warm-up');
  await measure(`${bare.url}/bare`, 'warm-up');
  const ours = summarize(await measure(`${api.url}${route}`, 'country-code'));
  const baseline = summarize(await measure(`${bare.url}/bare`, 'bare'));
  const ratio = ours.requestsPerSecond / baseline.requestsPerSecond;

  // argon2's ceiling, the servers idle: one verification per core at a time, and four
  // (libuv's default thread pool); the better of the two. Measured before the logins and
  // again after them, and averaged, so that a change of load during the run counts on both
  // sides of the ratio.
  const hashing = await argon2Options();
  const cores = os.availableParallelism();
  const ceilingAt = {};
  const measureCeiling = async () => {
    for (const concurrency of [...new Set([cores, 4])]) {
      ceilingAt[concurrency] = [
        ...(ceilingAt[concurrency] ?? []),
        await argon2PerSecond(hashing, concurrency, 5),
      ];
    }
  };
  await measureCeiling();
  const loginDataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tradebot-bench-login-'));
  const loginServer = await startServer(
    path.join(serverDir, 'dist/main.js'),
    serverEnv(loginDataDir, { TRUST_PROXY: '1', ROBOT_ENABLED: 'false', SEED_DEMO: 'false' }),
  );
  let logins;
  let settings;
  let bareGet;
  try {
    const token = await registerLoginAccounts(loginServer.url);
    await measure(loginServer.url, 'warm-up', { ...loginRequests(loginServer.url), duration: 2 });
    logins = summarize(await measure(loginServer.url, 'logins', loginRequests(loginServer.url)));
    const reading = { method: 'GET', body: undefined };
    const authorized = { ...reading, headers: { authorization: `Bearer ${token}` } };
    const settingsUrl = `${loginServer.url}/core-api/public/api/v1/get-settings`;
    await measure(settingsUrl, 'warm-up', { ...authorized, duration: 2 });
    settings = summarize(await measure(settingsUrl, 'get-settings', authorized));
    bareGet = summarize(await measure(`${bare.url}/bare`, 'bare GET', reading));
  } finally {
    await stopServer(loginServer);
    await fs.rm(loginDataDir, { recursive: true, force: true });
  }
  await measureCeiling();
  const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const ceiling = Math.max(...Object.values(ceilingAt).map(mean));
  const loginRatio = logins.requestsPerSecond / ceiling;
  const settingsRatio = settings.requestsPerSecond / bareGet.requestsPerSecond;

  const date = new Date().toISOString().slice(0, 10);
  const body = [
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
    '',
    '### Logins and an authenticated read',
    '',
    `The same run, then: a server with \`TRUST_PROXY=1\`, \`ROBOT_ENABLED=false\` and ${loginAccounts} ` +
      'accounts registered through the API; each login names another account and another ' +
      'client address (X-Forwarded-For), so no rate limit is reached. The ceiling is argon2id ' +
      "with the server's parameters (read from `password-hasher.ts`) verifying in a process of " +
      `its own while the servers idle, before and after the logins: ${Object.entries(ceilingAt)
        .map(
          ([concurrency, runs]) =>
            `${runs.map((perSecond) => Math.round(perSecond)).join(' and ')}/s ${concurrency} at a time`,
        )
        .join(', ')}; the better mean is the ceiling. get-settings is read with one session ` +
      "token (the session cache's path, decision 045) against the bare `GET /bare`.",
    '',
    '| measured | req/s | p50 (ms) | p99 (ms) | errors |',
    '| --- | ---: | ---: | ---: | ---: |',
    `| \`POST /login\`, a new account and address each time | ${logins.requestsPerSecond} | ${logins.p50} | ${logins.p99} | ${logins.errors} |`,
    `| argon2id verifications, the ceiling (baseline) | ${Math.round(ceiling)} | | | |`,
    `| \`GET /get-settings\` (bearer token) | ${settings.requestsPerSecond} | ${settings.p50} | ${settings.p99} | ${settings.errors} |`,
    `| bare Fastify \`GET /bare\` (baseline) | ${bareGet.requestsPerSecond} | ${bareGet.p50} | ${bareGet.p99} | ${bareGet.errors} |`,
    '',
    `**Ratios: logins / argon2 ceiling ${loginRatio.toFixed(2)} (target ≥ 0.8); ` +
      `get-settings / bare ${settingsRatio.toFixed(2)} (target ≥ 0.25)**`,
  ].join('\n');
  console.log(await writeBenchSection('api', body));
  if ([ours, baseline, logins, settings, bareGet].some((result) => result.errors > 0)) {
    process.exitCode = 1;
  }
} finally {
  await stopServer(api);
  await stopServer(bare);
  await fs.rm(dataDir, { recursive: true, force: true });
}
