// A login's database work on the event loop, before and after decision 061 (issue 11): the
// user's lookup and the session's insert, one login after another, as our process's CPU time
// per login (process.cpuUsage: PGlite runs on this thread; with PostgreSQL the server's work is
// in another process and what remains here is the driver and Drizzle). "before" is what the
// login ran until then (the whole user row by e-mail, a query built per call, and an insert
// built per call); "after" is `findCredentials` and `SessionsRepository.create`, both prepared.
// The two alternate in rounds, so that they share the machine's load; before is the baseline.
// Run: npx tsx apps/server/scripts/bench-login-queries.ts
// (BENCH_POSTGRES_URL: where a fresh database is created; empty skips PostgreSQL)
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrationsFolder } from '../src/app';
import { openDatabase, pgliteDirectory, type Database } from '../src/db/database';
import { migrate, readMigrations } from '../src/db/migrate';
import { sessions, users } from '../src/db/schema';
import { SessionsRepository } from '../src/repositories/sessions.repository';
import { UsersRepository } from '../src/repositories/users.repository';

const accounts = 500;
const loginsPerRun = Number(process.env.BENCH_LOGINS ?? 400);
const rounds = Number(process.env.BENCH_ROUNDS ?? 6);
const postgresAdminUrl =
  process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const day = 24 * 60 * 60 * 1000;

interface Bench {
  kind: string;
  database: Database;
  drop(): Promise<void>;
}

async function pglite(): Promise<Bench> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tradebot-bench-login-queries-'));
  const database = await openDatabase({ pgliteDir: pgliteDirectory(dataDir) });
  return {
    kind: 'PGlite (DATA_DIR)',
    database,
    drop: async () => {
      await database.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function postgres(): Promise<Bench | undefined> {
  if (!postgresAdminUrl) return undefined;
  const name = `tradebot_bench_login_queries_${String(process.pid)}`;
  const admin = new pg.Client({
    connectionString: postgresAdminUrl,
    connectionTimeoutMillis: 2000,
  });
  try {
    await admin.connect();
    await admin.query(`create database ${name}`);
  } catch (error) {
    console.log(`PostgreSQL skipped: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  } finally {
    await admin.end().catch(() => undefined);
  }
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString() });
  return {
    kind: 'PostgreSQL 127.0.0.1',
    database,
    drop: async () => {
      await database.close();
      const client = new pg.Client({ connectionString: postgresAdminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

async function measure({ kind, database }: Bench) {
  const { db } = database;
  await migrate(db, await readMigrations(migrationsFolder));
  await db.insert(users).values(
    Array.from({ length: accounts }, (_, index) => ({
      name: 'Bench',
      lastName: 'User',
      email: `bench${String(index)}@example.com`,
      passwordHash: `$argon2id$v=19$m=19456,t=2,p=1$${randomBytes(16).toString('base64')}`,
      language: 'es' as const,
    })),
  );
  const usersRepository = new UsersRepository(db);
  const sessionsRepository = new SessionsRepository(db);
  let next = 0;
  const variants = {
    before: async (email: string) => {
      const user = await usersRepository.findByEmail(email);
      if (!user) throw new Error('no user');
      await db.insert(sessions).values({
        userId: user.id,
        tokenHash: randomBytes(32).toString('hex'),
        expiresAt: new Date(Date.now() + day),
      });
    },
    after: async (email: string) => {
      const user = await usersRepository.findCredentials(email);
      if (!user) throw new Error('no user');
      await sessionsRepository.create(
        user.id,
        randomBytes(32).toString('hex'),
        new Date(Date.now() + day),
      );
    },
  };
  /** CPU milliseconds of this process per login. */
  const run = async (login: (email: string) => Promise<void>) => {
    const started = process.cpuUsage();
    for (let index = 0; index < loginsPerRun; index++) {
      await login(`BENCH${String(next++ % accounts)}@example.com`);
    }
    const used = process.cpuUsage(started);
    return (used.user + used.system) / 1000 / loginsPerRun;
  };
  // Warm-up: JIT, plans, caches.
  await run(variants.before);
  await run(variants.after);
  const results: { before: number; after: number }[] = [];
  for (let round = 0; round < rounds; round++) {
    const result = { before: 0, after: 0 };
    for (const name of round % 2
      ? (['after', 'before'] as const)
      : (['before', 'after'] as const)) {
      result[name] = await run(variants[name]);
    }
    results.push(result);
  }
  const ratios = results.map((result) => result.after / result.before).sort((a, b) => a - b);
  console.log(
    `\n${kind}: CPU ms per login (lookup + session insert), ${String(loginsPerRun)} logins a run`,
  );
  console.log('| round | before (baseline) | after | after / before |');
  console.log('| ---: | ---: | ---: | ---: |');
  results.forEach((result, index) => {
    console.log(
      `| ${String(index + 1)} | ${result.before.toFixed(3)} | ${result.after.toFixed(3)} | ${(result.after / result.before).toFixed(2)} |`,
    );
  });
  const middle = ratios.length >> 1;
  const median =
    ratios.length % 2 ? ratios[middle] : ((ratios[middle - 1] ?? 0) + (ratios[middle] ?? 0)) / 2;
  console.log(
    `after / before: median ${median?.toFixed(2) ?? '?'}, ${ratios[0]?.toFixed(2) ?? '?'}–${ratios.at(-1)?.toFixed(2) ?? '?'}`,
  );
}

for (const open of [pglite, postgres]) {
  const bench = await open();
  if (!bench) continue;
  try {
    await measure(bench);
  } finally {
    await bench.drop();
  }
}
