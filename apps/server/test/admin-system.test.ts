import { Writable } from 'node:stream';
import type { AdminSystem } from '@tradebot/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/migrate';
import { v1 } from './helpers/accounts';
import { createAdmin, signedInAdmin } from './helpers/admin';
import { trader, useRobotApp, type RobotTestContext } from './helpers/trading';

// Decision 160: the console's system page, the processes running the robot.
/** The test's error lines are not printed. */
const quiet = () =>
  new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function systemOf(app: FastifyInstance, headers: Record<string, string>) {
  const response = await app.inject({ url: `${v1}/admin/system`, headers });
  expect(response.statusCode).toBe(200);
  return response.json<{ data: AdminSystem }>().data;
}

async function adminHeaders(context: RobotTestContext) {
  return signedInAdmin(context.app, context.clock, await createAdmin(context.app));
}

describe('the system page, embedded (one process runs the robot)', () => {
  // Error lines are kept only when logged, as in production (LOG_LEVEL info).
  const context = useRobotApp({ LOG_LEVEL: 'error' }, () => ({ logStream: quiet() }));

  it('is for admins only', async () => {
    const anonymous = await context.app.inject({ url: `${v1}/admin/system` });
    expect(anonymous.statusCode).toBe(401);
    const { headers } = await trader(context.app);
    const user = await context.app.inject({ url: `${v1}/admin/system`, headers });
    expect(user.statusCode).toBe(403);
  });

  it('shows this process with the accounts it runs, its tick lag and its last errors', async () => {
    const headers = await adminHeaders(context);
    await trader(context.app);
    await trader(context.app, { email: 'second@example.com' });
    for (let i = 0; i < 7; i++)
      context.app.log.error({ attempt: i }, `jobs: run ${String(i)} failed`);
    context.app.log.warn('a warning is not an error');

    const system = await systemOf(context.app, headers);
    expect(system.mode).toBe('embedded');
    expect(system.unheldAccounts).toBe(0);
    expect(system.processes).toHaveLength(1);
    const [own] = system.processes;
    expect(own).toMatchObject({
      process: context.app.owner,
      self: true,
      accounts: 2,
      tickLagMs: 0,
      leaseMoves: { claimed: 0, lost: 0, released: 0 },
      reportedAt: context.clock.now().toISOString(),
    });
    // The last five, newest first.
    expect(own?.errors.map((error) => error.message)).toEqual([
      'jobs: run 6 failed',
      'jobs: run 5 failed',
      'jobs: run 4 failed',
      'jobs: run 3 failed',
      'jobs: run 2 failed',
    ]);
  });
});

describe('the system page, scaled (processes share the accounts by lease)', () => {
  const context = useRobotApp(
    {
      LOG_LEVEL: 'error',
      ROBOT_LEASES: 'true',
      ROBOT_LEASE_RENEW_MS: '100',
      // One account a process: the second trader's account is held by nobody.
      ROBOT_CAPACITY: '1',
    },
    () => ({ logStream: quiet() }),
  );

  const heldHere = async (app: FastifyInstance) =>
    Number(
      rowsOf<{ n: string | number }>(
        await app.database.db.execute(
          sql`select count(*) as n from robot_leases where owner = ${app.owner}`,
        ),
      )[0]?.n,
    );

  it('lists every live process from its stored report, this one fresh, and the accounts unheld', async () => {
    const headers = await adminHeaders(context);
    await trader(context.app);
    await trader(context.app, { email: 'second@example.com' });
    // Both accounts have their lease row, one held here.
    const leaseRows = async () =>
      Number(
        rowsOf<{ n: string | number }>(
          await context.app.database.db.execute(sql`select count(*) as n from robot_leases`),
        )[0]?.n,
      );
    for (
      let i = 0;
      i < 100 && ((await heldHere(context.app)) === 0 || (await leaseRows()) < 2);
      i++
    ) {
      await sleep(50);
    }
    expect(await heldHere(context.app)).toBe(1);

    // Another process alive, with its report; one that stopped reporting long ago is gone.
    const other = {
      at: '2026-11-21T11:59:50.000Z',
      tickLagMs: 840,
      leaseMoves: { claimed: 3, lost: 1, released: 2 },
      errors: [{ at: '2026-11-21T11:58:00.000Z', message: 'robot: the worker failed' }],
    };
    await context.app.database.db.execute(sql`
      insert into robot_processes (owner, seen_until, report) values
        ('other:2:abcd', now() + interval '1 hour', ${JSON.stringify(other)}::jsonb),
        ('gone:3:ef01', now() - interval '1 minute', null),
        ('new:4:aaaa', now() + interval '1 hour', null)`);

    const system = await systemOf(context.app, headers);
    expect(system.mode).toBe('scaled');
    expect(system.unheldAccounts).toBe(1);
    const byName = new Map(system.processes.map((process) => [process.process, process]));
    expect([...byName.keys()].sort()).toEqual(
      [context.app.owner, 'new:4:aaaa', 'other:2:abcd'].sort(),
    );
    expect(byName.get(context.app.owner)).toMatchObject({
      self: true,
      accounts: 1,
      leaseMoves: { claimed: 1, lost: 0, released: 0 },
      errors: [],
    });
    expect(byName.get('other:2:abcd')).toEqual({
      process: 'other:2:abcd',
      self: false,
      accounts: 0,
      tickLagMs: 840,
      leaseMoves: { claimed: 3, lost: 1, released: 2 },
      reportedAt: other.at,
      errors: other.errors,
    });
    // Alive but not reported yet: no figures rather than made-up ones.
    expect(byName.get('new:4:aaaa')).toMatchObject({ tickLagMs: null, reportedAt: null });

    // This process stores its own report for the others' pages.
    context.app.log.error('billing: a renewal failed');
    await context.app.jobs.runNow('system-report');
    const stored = rowsOf<{ report: unknown }>(
      await context.app.database.db.execute(
        sql`select report from robot_processes where owner = ${context.app.owner}`,
      ),
    )[0]?.report;
    const report = (typeof stored === 'string' ? JSON.parse(stored) : stored) as {
      leaseMoves: unknown;
      errors: { message: string }[];
    };
    expect(report.leaseMoves).toEqual({ claimed: 1, lost: 0, released: 0 });
    expect(report.errors.map((error) => error.message)).toEqual(['billing: a renewal failed']);
  });
});
