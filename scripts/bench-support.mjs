// What the bench scripts share: starting and stopping a server process, a fresh database,
// bundling a server script, running autocannon, percentiles, and writing a section of
// docs/benchmarks.md.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { build } from 'esbuild';
import pg from 'pg';
import * as prettier from 'prettier';

export const root = path.resolve(import.meta.dirname, '..');
export const serverDir = path.join(root, 'apps/server');

/**
 * The environment of the built server in a bench: production, on a free port of 127.0.0.1,
 * quiet, embedded database (PGlite) in `dataDir`, no Redis; `extra` on top.
 */
export function serverEnv(dataDir, extra = {}) {
  return {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    REDIS_URL: '',
    ...extra,
  };
}

/**
 * Starts `node [execArgv] script` from the repository's root and resolves once it prints
 * "listening on <url>"; rejects with its output if it exits first.
 */
export function startServer(script, env = process.env, execArgv = []) {
  const child = spawn(process.execPath, [...execArgv, script], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve({ url: match[1], child, output: () => output });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}:\n${output}`)));
  });
}

/**
 * CPU time (user + system, every thread) a child process has used so far, in µs, from
 * /proc/<pid>/stat: what a server spends, whatever else the machine is doing.
 */
export async function processCpuMicros(child) {
  const stat = await fs.readFile(`/proc/${child.pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start at the state, field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime (14) + stime (15)
  return (ticks / clockTicksPerSecond) * 1e6;
}
/** USER_HZ: 100 on Linux on every architecture Node supports. */
const clockTicksPerSecond = 100;

/** Sends SIGTERM; resolves with the exit code (0 when the server stopped cleanly). */
export async function stopServer(server) {
  if (server.child.exitCode !== null) return server.child.exitCode;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  return exited;
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

/** Runs `node script args` to its end; resolves with its output, rejects on a failure. */
export function runNode(script, args, env = process.env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: root, env });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${script} ${args.join(' ')}:\n${output}`)),
    );
  });
}

/**
 * Bundles apps/server/scripts/<entry> into apps/server/dist/<name> (the server's packages
 * stay external), so a bench runs it with plain node. Resolves with the bundle's path.
 */
export async function bundleServerScript(entry, name) {
  const pkg = JSON.parse(readFileSync(path.join(serverDir, 'package.json'), 'utf8'));
  const outfile = path.join(serverDir, 'dist', name);
  await build({
    entryPoints: [path.join(serverDir, 'scripts', entry)],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    external: Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }),
    logLevel: 'warning',
  });
  return outfile;
}

/** One autocannon run; resolves with its result. */
export function autocannonRun(options) {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** The p-th percentile (nearest rank) of ascending numbers. */
export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * Puts `body` between `<!-- bench:<name>:start -->` and `<!-- bench:<name>:end -->` in
 * docs/benchmarks.md (replacing what was there, or appended), and resolves with the section.
 */
export async function writeBenchSection(name, body) {
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const section = `${start}\n${body}\n${end}`;
  const file = path.join(root, 'docs/benchmarks.md');
  let text = await fs.readFile(file, 'utf8').catch(() => '# Benchmarks\n');
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  text =
    from >= 0 && to > from
      ? `${text.slice(0, from)}${section}${text.slice(to + end.length)}`
      : `${text.trimEnd()}\n\n${section}\n`;
  // Formatted as `npm run format:check` expects, so a fresh result never turns CI red.
  const prettierOptions = await prettier.resolveConfig(file);
  await fs.writeFile(file, await prettier.format(text, { ...prettierOptions, filepath: file }));
  return section;
}

/**
 * A fresh database for a bench's servers: a PGlite directory (`url` empty: the server opens
 * PGlite in its DATA_DIR), or a PostgreSQL database created from `postgresAdminUrl`.
 * `drop()` removes it and the directory.
 */
export async function freshDatabase(kind, label, postgresAdminUrl) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `tradebot-bench-${label}-${kind}-`));
  const removeDir = () => fs.rm(dataDir, { recursive: true, force: true });
  if (kind === 'pglite') return { kind, dataDir, url: '', drop: removeDir };
  const name = `tradebot_bench_${label}_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({
    connectionString: postgresAdminUrl,
    connectionTimeoutMillis: 2000,
  });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  return {
    kind,
    dataDir,
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: postgresAdminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
      await removeDir();
    },
  };
}

/**
 * Makes accounts as users do (decision 085): register, then confirm with the link mailed into
 * `dataDir`/mail (embedded e-mail) and the nonce register answered. `headers` go with both
 * calls (an X-Forwarded-For per account keeps the per-address limits apart). Each .eml is read
 * once, however many accounts are made.
 */
export function accountMaker(url, dataDir) {
  const api = `${url}/core-api/public/api/v1`;
  const mailDir = path.join(dataDir, 'mail');
  const seen = new Set();
  const links = new Map();
  const post = async (route, body, headers) => {
    const response = await fetch(`${api}${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`POST ${route} answered ${response.status}: ${text}`);
    return JSON.parse(text);
  };
  const scan = async () => {
    const names = await fs.readdir(mailDir).catch(() => []);
    for (const name of names) {
      if (!name.endsWith('.eml') || seen.has(name)) continue;
      const mail = (await fs.readFile(path.join(mailDir, name), 'utf8'))
        .replace(/=\r?\n/g, '')
        .replaceAll('=3D', '=');
      const to = /^To: (.+)$/m.exec(mail)?.[1]?.trim().toLowerCase();
      const token = /confirmation_token=([\w-]+)/.exec(mail)?.[1];
      // A server before .eml files were written whole may show one half-written: read it again.
      if (!to || !token) continue;
      seen.add(name);
      links.set(to, token);
    }
  };
  return async function makeAccount(body, headers = {}) {
    const { nonce } = (await post('/register', body, headers)).data;
    const email = body.email.toLowerCase();
    const deadline = Date.now() + 30_000;
    while (!links.has(email)) {
      if (Date.now() > deadline) throw new Error(`no confirmation link mailed to ${email}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
      await scan();
    }
    const token = links.get(email);
    links.delete(email);
    return (await post('/register/confirm', { token, nonce }, headers)).data.token;
  };
}
