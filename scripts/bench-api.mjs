// npm run bench: our real API route against a bare Fastify route, in one run, so the
// ratio holds on a noisy shared machine. Writes its section of docs/benchmarks.md.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import {
  accountMaker,
  autocannonRun,
  bundleServerScript,
  freshDatabase,
  processCpuMicros,
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
/** Databases the logins run on: PGlite in the process, PostgreSQL out of it (scaled mode). */
const loginDatabases = (process.env.BENCH_LOGIN_DATABASES ?? 'pglite,postgres')
  .split(',')
  .filter(Boolean);
/** Where a fresh database is created for the PostgreSQL runs. */
const postgresAdminUrl =
  process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** Rounds per database; in each, every server variant and both baselines, in turn. */
const loginRounds = Number(process.env.BENCH_LOGIN_ROUNDS ?? 3);
/**
 * Another build of the server (its dist/main.js, e.g. the code before a change), measured in
 * the same rounds, alternating with this one: an A/B whose ratios share the machine's load.
 */
const loginBefore = process.env.BENCH_LOGIN_BEFORE;
/**
 * `settings`: only the authenticated read (get-settings against the bare route), with one
 * account registered instead of hundreds: no country-code run, no logins, no argon2 ceiling,
 * which hold both cores for minutes. Writes only the reads' section of docs/benchmarks.md.
 */
const only = process.env.BENCH_ONLY ?? '';
if (!['', 'settings'].includes(only))
  throw new Error(`BENCH_ONLY=${only}: only "settings" is known`);
const settingsOnly = only === 'settings';
/** Rounds of the read per database; in each, every server variant, then the bare route. */
const readRounds = Number(process.env.BENCH_READ_ROUNDS ?? 2);
/**
 * A directory: the servers of this build measured on the read run under `node --cpu-prof`,
 * their profiles written there when they stop (docs/benchmarks.md says how to read them).
 */
const cpuProfileDir = process.env.BENCH_CPU_PROF;

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
const loginAccounts = Number(process.env.BENCH_LOGIN_ACCOUNTS ?? 500);
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

/**
 * Registers `count` login accounts (8 at a time), each confirmed through the link mailed to it
 * (decision 085), and answers one session token.
 */
async function registerLoginAccounts(url, dataDir, count) {
  const makeAccount = accountMaker(url, dataDir);
  let next = 0;
  const tokens = [];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < count) {
        const index = next++;
        const token = await makeAccount(
          {
            name: 'Bench',
            last_name: 'User',
            email: `bench${index}@example.com`,
            password: benchPassword,
            confirm_password: benchPassword,
            accept_terms: true,
            accept_privacy: true,
          },
          { 'x-forwarded-for': clientAddress(100_000 + index) },
        );
        tokens.push(token);
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

function startLoginServer(script, database, execArgv = []) {
  return startServer(
    script,
    serverEnv(database.dataDir, {
      DATABASE_URL: database.url,
      TRUST_PROXY: '1',
      ROBOT_ENABLED: 'false',
      SEED_DEMO: 'false',
    }),
    execArgv,
  );
}

/** Logins / argon2 route of the same run, median over the rounds (issue 18). */
const loginTargets = { postgres: 0.85, pglite: 0.75 };

/** Requests per CPU measurement of a read (issue 18: at least 50,000). */
const cpuRequests = Number(process.env.BENCH_CPU_REQUESTS ?? 60_000);

/** A run's summary plus the server's own CPU per request over it, in µs. */
async function withServerCpu(server, run) {
  const before = await processCpuMicros(server.child);
  const result = await run();
  const used = (await processCpuMicros(server.child)) - before;
  const requests = result.requests.total;
  return { ...summarize(result), requests, cpuMicrosPerRequest: used / requests };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const spread = (values) =>
  `${median(values).toFixed(2)} (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})`;

/**
 * The authenticated read (the session cache's path, decision 045) on every variant, against
 * the bare GET, `readRounds` times; the variants' order alternates by round. One row a round.
 */
async function measureReads(kind, database, variants, token, bare) {
  const rows = [];
  const reading = { method: 'GET', body: undefined };
  const authorized = { ...reading, headers: { authorization: `Bearer ${token}` } };
  for (let round = 0; round < readRounds; round++) {
    const row = { kind, round: round + 1, settings: {} };
    const order = round % 2 ? [...variants].reverse() : variants;
    for (const variant of order) {
      const profiled = cpuProfileDir && variant === variants.at(-1);
      const execArgv = profiled
        ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(cpuProfileDir)}`]
        : [];
      const server = await startLoginServer(variant.script, database, execArgv);
      let stopped;
      try {
        const settingsUrl = `${server.url}/core-api/public/api/v1/get-settings`;
        await measure(settingsUrl, 'warm-up', { ...authorized, duration: 2 });
        row.settings[variant.name] = await withServerCpu(server, () =>
          measure(settingsUrl, `get-settings (${variant.name})`, {
            ...authorized,
            amount: cpuRequests,
          }),
        );
      } finally {
        stopped = await stopServer(server);
      }
      // A clean exit is what writes the profile (--cpu-prof) and shows nothing broke.
      if (stopped !== 0) throw new Error(`${variant.name} exited with ${stopped}`);
    }
    row.bareGet = await withServerCpu(bare, () =>
      measure(`${bare.url}/bare`, 'bare GET', { ...reading, amount: cpuRequests }),
    );
    console.log(JSON.stringify(row));
    rows.push(row);
  }
  return rows;
}

/** The reads' section of docs/benchmarks.md: one row per database, round and variant. */
function readsSection(reads, names, date) {
  const rows = reads.flatMap((row) =>
    names.map((name) => {
      const settings = row.settings[name];
      return (
        `| ${row.kind} | ${row.round} | ${name} | ${settings.requestsPerSecond} | ${settings.p99} | ` +
        `${settings.cpuMicrosPerRequest.toFixed(1)} | ${row.bareGet.requestsPerSecond} | ` +
        `${row.bareGet.cpuMicrosPerRequest.toFixed(1)} | ` +
        `${(settings.cpuMicrosPerRequest / row.bareGet.cpuMicrosPerRequest).toFixed(2)} |`
      );
    }),
  );
  const kinds = [...new Set(reads.map((row) => row.kind))];
  const summary = kinds.flatMap((kind) => {
    const of = reads.filter((row) => row.kind === kind);
    return names.map((name) => {
      const micros = median(of.map((row) => row.settings[name].cpuMicrosPerRequest));
      const bareMicros = median(of.map((row) => row.bareGet.cpuMicrosPerRequest));
      return (
        `- ${kind}, ${name}: ${micros.toFixed(1)} µs of server CPU per get-settings (median of ${of.length}; ` +
        `target ≤ 50: ${micros <= 50 ? 'met' : 'not met'}), bare route ${bareMicros.toFixed(1)} µs`
      );
    });
  });
  return [
    '### An authenticated read (`npm run bench`, or `BENCH_ONLY=settings node scripts/bench-api.mjs`)',
    '',
    `Measured ${date} (load average ${os.loadavg()[0].toFixed(1)} at the end). One account ` +
      `registered through the API on each database; ${readRounds} rounds, in each: ` +
      `${names.length > 1 ? `every build (${names.join(', ')}; the order alternates by round)` : 'this build'}, ` +
      `each a fresh server process after a 2 s warm-up, then the bare route. ${cpuRequests.toLocaleString('en')} ` +
      "requests each, 10 connections; the server process's own CPU (user + system, every thread, " +
      "from /proc/<pid>/stat) per request. On PostgreSQL the database server's CPU is not counted; " +
      'on PGlite the database runs inside the server process and is.',
    '',
    '| database | round | build | `GET /get-settings` (bearer token) req/s | p99 (ms) | server CPU per request (µs; target ≤ 50) | bare `GET /bare` req/s | bare CPU per request (µs) | CPU / bare CPU |',
    '| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    ...summary,
  ].join('\n');
}

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tradebot-bench-'));
const bare = await startServer(path.join(serverDir, 'scripts/bench-bare-server.mjs'));
const api = settingsOnly
  ? undefined
  : await startServer(path.join(serverDir, 'dist/main.js'), serverEnv(dataDir));
try {
  const route = '/core-api/public/api/v1/country-code';
  let ours;
  let baseline;
  if (api) {
    // Warm both up so that JIT and first-request costs do not count.
    await measure(`${api.url}${route}`, 'warm-up');
    await measure(`${bare.url}/bare`, 'warm-up');
    ours = summarize(await measure(`${api.url}${route}`, 'country-code'));
    baseline = summarize(await measure(`${bare.url}/bare`, 'bare'));
    await stopServer(api);
  }
  await measure(`${bare.url}/bare`, 'warm-up', { method: 'GET', body: undefined, duration: 2 });

  const argon2Route = settingsOnly
    ? undefined
    : await bundleServerScript('bench-argon2-server.ts', 'bench-argon2-server.js');
  const hashing = await argon2Options();
  const cores = os.availableParallelism();
  const variants = [
    ...(loginBefore ? [{ name: 'before', script: path.resolve(loginBefore) }] : []),
    { name: 'this build', script: path.join(serverDir, 'dist/main.js') },
  ];
  /** One row per database and round: logins per variant, both baselines, the ceiling's runs. */
  const rounds = [];
  const reads = [];
  const failures = [];
  for (const kind of loginDatabases) {
    let database;
    try {
      database = await freshDatabase(kind, 'login', postgresAdminUrl);
    } catch (error) {
      console.log(`logins on ${kind} skipped: ${error.message}`);
      continue;
    }
    try {
      // The accounts, registered through this build; every server below shares them.
      let token;
      const registering = await startLoginServer(variants.at(-1).script, database);
      try {
        token = await registerLoginAccounts(
          registering.url,
          database.dataDir,
          settingsOnly ? 1 : loginAccounts,
        );
      } finally {
        await stopServer(registering);
      }
      const readRows = await measureReads(kind, database, variants, token, bare);
      reads.push(...readRows);
      failures.push(...readRows.flatMap((row) => [...Object.values(row.settings), row.bareGet]));
      for (let round = 0; round < (settingsOnly ? 0 : loginRounds); round++) {
        const row = { kind, round: round + 1, logins: {} };
        // Alternate which variant goes first, so that neither always meets the same load.
        const order = round % 2 ? [...variants].reverse() : variants;
        for (const variant of order) {
          const server = await startLoginServer(variant.script, database);
          try {
            await measure(server.url, 'warm-up', { ...loginRequests(server.url), duration: 2 });
            row.logins[variant.name] = summarize(
              await measure(server.url, `logins (${variant.name})`, loginRequests(server.url)),
            );
            failures.push(row.logins[variant.name]);
          } finally {
            await stopServer(server);
          }
        }
        const hashOnly = await startServer(argon2Route, {
          ...process.env,
          BENCH_PASSWORD: benchPassword,
        });
        try {
          await measure(hashOnly.url, 'warm-up', { ...loginRequests(hashOnly.url), duration: 2 });
          row.hashOnly = summarize(
            await measure(hashOnly.url, 'argon2 route', loginRequests(hashOnly.url)),
          );
          failures.push(row.hashOnly);
        } finally {
          await stopServer(hashOnly);
        }
        // argon2's ceiling, no server and no load generator: one verification per core at a
        // time, and four (libuv's default thread pool); the better of the two.
        row.ceilingAt = {};
        for (const concurrency of [...new Set([cores, 4])]) {
          row.ceilingAt[concurrency] = await argon2PerSecond(hashing, concurrency, 5);
        }
        row.ceiling = Math.max(...Object.values(row.ceilingAt));
        rounds.push(row);
        console.log(JSON.stringify(row));
      }
    } finally {
      await database.drop();
    }
  }

  const date = new Date().toISOString().slice(0, 10);
  const names = variants.map((variant) => variant.name);
  const loginRows = rounds.map(
    (row) =>
      [
        `| ${row.kind} | ${row.round}`,
        ...names.map(
          (name) => `${row.logins[name].requestsPerSecond} (p99 ${row.logins[name].p99})`,
        ),
        `${row.hashOnly.requestsPerSecond} (p99 ${row.hashOnly.p99})`,
        Object.entries(row.ceilingAt)
          .map(([concurrency, perSecond]) => `${Math.round(perSecond)} (${concurrency})`)
          .join(', '),
        ...names.map((name) => (row.logins[name].requestsPerSecond / row.ceiling).toFixed(2)),
        ...names.map((name) =>
          (row.logins[name].requestsPerSecond / row.hashOnly.requestsPerSecond).toFixed(2),
        ),
      ].join(' | ') + ' |',
  );
  const summaryLines = loginDatabases
    .filter((kind) => rounds.some((row) => row.kind === kind))
    .flatMap((kind) => {
      const of = rounds.filter((row) => row.kind === kind);
      return names.map(
        (name) =>
          `- ${kind}, ${name}: logins / ceiling ${spread(of.map((row) => row.logins[name].requestsPerSecond / row.ceiling))}; ` +
          `logins / argon2 route ${spread(of.map((row) => row.logins[name].requestsPerSecond / row.hashOnly.requestsPerSecond))}` +
          ` (target ≥ ${loginTargets[kind]}: ${median(of.map((row) => row.logins[name].requestsPerSecond / row.hashOnly.requestsPerSecond)) >= loginTargets[kind] ? 'met' : 'not met'})`,
      );
    });
  const ratio = ours && ours.requestsPerSecond / baseline.requestsPerSecond;
  // The throughput and logins' section, when they ran (not with BENCH_ONLY=settings).
  const body =
    !settingsOnly &&
    [
      '## API (`npm run bench`)',
      '',
      `Measured ${date} on this 2-core shared machine (load average ${os.loadavg()[0].toFixed(1)} at the end): autocannon, ${connections} connections, ` +
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
      '### Logins',
      '',
      `The same run, then, on each database: ${loginAccounts} accounts registered through the API; ` +
        'servers with `TRUST_PROXY=1` and `ROBOT_ENABLED=false`, each login naming another account ' +
        `and another client address (X-Forwarded-For), so no rate limit is reached. ${loginRounds} ` +
        `rounds per database; in each, in turn: logins on ${names.length > 1 ? `each build (${names.join(', ')}; the order alternates by round)` : 'this build'}, ` +
        'then two baselines. **argon2 route**: a bare Fastify route on the login path whose only ' +
        "work is one verification with the server's hasher (`apps/server/scripts/bench-argon2-server.ts`), " +
        'driven by the same load generator: what the machine does for a login whose only cost is ' +
        'the hash. **Ceiling**: argon2id with the same parameters verifying in a process of its ' +
        'own, with no server and no load generator, 2 and 4 at a time; the better one counts. ' +
        'Logins req/s with p99 in ms.',
      '',
      `| database | round | ${names.map((name) => `logins, ${name}`).join(' | ')} | argon2 route | ceiling (at a time) | ${names.map((name) => `/ ceiling, ${name}`).join(' | ')} | ${names.map((name) => `/ argon2 route, ${name}`).join(' | ')} |`,
      `| --- | ---: | ${names.map(() => '---:').join(' | ')} | ---: | ---: | ${names.map(() => '---:').join(' | ')} | ${names.map(() => '---:').join(' | ')} |`,
      ...loginRows,
      '',
      'Median (min–max) over the rounds (targets, issue 18: logins ≥ 0.85 × the argon2 route on PostgreSQL, ≥ 0.75 × on PGlite; the ceiling is kept for reference):',
      '',
      ...summaryLines,
    ].join('\n');
  if (body) console.log(await writeBenchSection('api', body));
  console.log(await writeBenchSection('api-reads', readsSection(reads, names, date)));
  if ([ours, baseline, ...failures].some((result) => result?.errors > 0)) {
    process.exitCode = 1;
  }
} finally {
  if (api) await stopServer(api);
  await stopServer(bare);
  await fs.rm(dataDir, { recursive: true, force: true });
}
