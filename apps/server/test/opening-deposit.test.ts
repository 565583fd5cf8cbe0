import { InstrumentCatalogue, PaperBroker } from '@tradebot/robot';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/migrate';
import { DrizzleJobClaims } from '../src/repositories/job-claims.repository';
import { PlatformUsersRepository } from '../src/repositories/platform-users.repository';
import { UsersRepository } from '../src/repositories/users.repository';
import { DrizzlePlatformJournal } from '../src/robot/worker/drizzle-platform-journal';
import { openPendingPlatformAccounts } from '../src/robot/link/platform-openings';
import { replica, useTestApp } from './helpers/app';
import { testEngine } from './helpers/database';
import { v1 } from './helpers/accounts';
import { paidUser, platformPassword } from './helpers/linking';
import { until } from './helpers/until';

// Issue 37, point 1 (decision 110): an account at the built-in platform has one opening deposit,
// however many processes open it. On the scaled set-up the process serving a link opened the
// account without the opening's claim while another process's openings pass opened it again,
// and the user saw 20,000 instead of 10,000.

interface DepositRow {
  account_id: string;
  deposits: string | number;
  cents: string | number;
  balance: string | number;
}

const depositsOf = async (app: FastifyInstance) =>
  rowsOf<DepositRow>(
    await app.database.db.execute(sql`
      select a.account_id, count(d.*) as deposits, coalesce(sum(d.cents), 0) as cents,
        a.balance_cents as balance
      from platform_accounts a left join platform_deposits d using (account_id)
      group by a.account_id, a.balance_cents`),
  ).map((row) => ({
    accountId: row.account_id,
    deposits: Number(row.deposits),
    cents: Number(row.cents),
    balance: Number(row.balance),
  }));

describe(`the opening deposit, booked once per account (${testEngine})`, () => {
  const context = useTestApp();

  it('two platforms opening the same account book one opening deposit, and the balance once', async () => {
    const { userId } = await paidUser(context.app, 'twice-opened@example.com');
    const db = context.app.database.db;
    // Two processes' platforms, each with its own journal on the one database, 14 ms apart (as
    // seen on the scaled set-up): the deposits differ in time, so only the opening's key tells.
    const brokers = [0, 14].map(
      (lag) =>
        new PaperBroker(new InstrumentCatalogue(), {
          journal: new DrizzlePlatformJournal(db),
          clock: { now: () => Date.now() + lag },
        }),
    );
    await Promise.all(brokers.map((broker) => broker.openAccount(userId, 1_000_000)));
    // A later deposit (a gift) is not an opening: it is booked.
    await brokers[0]?.deposit(userId, 10_000);

    expect(await depositsOf(context.app)).toEqual([
      { accountId: userId, deposits: 2, cents: 1_010_000, balance: 1_010_000 },
    ]);
  });
});

describe.skipIf(testEngine !== 'postgres')(
  'linking while another process runs its openings pass (the scaled set-up)',
  () => {
    const leased = {
      ROBOT_ENABLED: 'true',
      ROBOT_THREAD: 'inline',
      ROBOT_WARM_UP_MS: '0',
      ROBOT_LEASES: 'true',
      ROBOT_LEASE_MS: '3000',
      ROBOT_LEASE_RENEW_MS: '300',
      ROBOT_LEASE_MARGIN_MS: '1000',
    };
    const context = useTestApp(leased, () => ({ billingTimers: false }));
    const apps: FastifyInstance[] = [];
    /** Stops the other process's openings pass (at the end, or when the test failed). */
    let afterEachStop = () => Promise.resolve();
    afterEach(async () => {
      await afterEachStop();
      for (const app of apps.splice(0)) await app.close();
    });

    it('every account linked gets one $10,000 deposit, whichever process opens it', async () => {
      const serving = context.app;
      const other = await replica(context, leased, undefined, { billingTimers: false });
      apps.push(other);
      const db = other.database.db;
      const robot = other.robot;
      if (!robot) throw new Error('the other process runs no robot');
      // The other process's openings pass, as its timer runs it, but without pause.
      const claims = new DrizzleJobClaims(db, 'the-other-process');
      const logins = new PlatformUsersRepository(db);
      const users = new UsersRepository(db);
      const state = { passing: true };
      let passes = 0;
      const passer = (async () => {
        while (state.passing) {
          await openPendingPlatformAccounts(robot, logins, users, claims);
          passes++;
        }
      })();
      afterEachStop = async () => {
        state.passing = false;
        await passer;
      };

      const count = 24;
      const people = [];
      for (let i = 0; i < count; i++) {
        const email = `racing-link-${String(i)}@example.com`;
        people.push(await paidUser(serving, email, true, `10.0.0.${String(i + 1)}`));
      }
      // Each from its own address, as each user's browser (the link's rate limit is per address).
      const answers = await Promise.all(
        people.map(({ headers }, i) =>
          serving.inject({
            method: 'POST',
            url: `${v1}/link-account`,
            headers,
            payload: { password: platformPassword, confirm_password: platformPassword },
            remoteAddress: `10.0.0.${String(i + 1)}`,
          }),
        ),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual(Array<number>(count).fill(201));
      const ids = new Set(people.map((person) => person.userId));
      // Theirs only (the other process opened the robot's own account, decision 060).
      const linked = async () =>
        (await depositsOf(serving)).filter((row) => ids.has(row.accountId));
      await until('every linked account to be open', async () => {
        const rows = await linked();
        return rows.length === count && rows.every((row) => row.deposits > 0);
      });
      const before = passes;
      await until('two more openings passes', () => passes >= before + 2);
      await afterEachStop();

      const rows = await linked();
      expect(rows.filter((row) => row.deposits !== 1 || row.balance !== 1_000_000)).toEqual([]);
      expect(rows).toHaveLength(count);
      // Both paths took the opening's one claim: each account's is finished, by one process.
      const claimed = rowsOf<{ item: string }>(
        await db.execute(sql`
          select item from job_claims where job = 'robot.open' and finished_at is not null`),
      ).map((row) => row.item);
      expect(claimed.filter((item) => ids.has(item)).sort()).toEqual([...ids].sort());
    }, 120_000);
  },
);
