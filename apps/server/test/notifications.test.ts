import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/database';
import { notificationOutbox, tradingPlatformLinks, users } from '../src/db/schema';
import { systemClock } from '../src/repositories/clock';
import { DrizzleJobClaims } from '../src/repositories/job-claims.repository';
import type { Mailer, MailMessage } from '../src/repositories/mail.repository';
import { NotificationsRepository } from '../src/repositories/notifications.repository';
import { DrizzleOncePerWindow } from '../src/repositories/once-per-window.repository';
import {
  NotificationService,
  deliveredNotificationsKeptMs,
} from '../src/services/notification.service';
import { mailsTo, v1 } from './helpers/accounts';
import { createTestDatabase, testEngine, type TestDatabase } from './helpers/database';
import {
  openCount,
  robotOf,
  runMarket,
  storedTrades,
  trader,
  useRobotApp,
} from './helpers/trading';

// Issue 22, notifications (decision 088): each event is recorded once and mailed once, with
// several processes racing and after a process died between claiming an e-mail and sending it.

const settingsPath = `${v1}/notifications/settings`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a mail server received. */
class RecordingMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  send(message: MailMessage): Promise<void> {
    this.sent.push(message);
    return Promise.resolve();
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** One server process's notification service on `db`, named `owner`, mailing to `mailer`. */
function processOn(db: Database['db'], owner: string, mailer: Mailer, leaseMs = 60_000) {
  return new NotificationService({
    repository: new NotificationsRepository(db),
    claims: new DrizzleJobClaims(db, owner, leaseMs),
    windows: new DrizzleOncePerWindow(db, owner),
    mailer,
    clock: systemClock,
    robotNow: () => Date.now(),
    links: () => ({
      dashboard: 'http://x/dashboard',
      settings: 'http://x/profile-config',
      payment: 'http://x/payment',
    }),
    dayFigures: () => Promise.resolve(undefined),
    houseAccountId: '00000000-0000-0000-0000-000000000000',
    onError: (error) => {
      throw error;
    },
  });
}

async function someUsers(db: Database['db'], count: number): Promise<string[]> {
  const rows = await db
    .insert(users)
    .values(
      Array.from({ length: count }, (_, index) => ({
        name: `User${String(index)}`,
        lastName: 'Test',
        email: `user${String(index)}@example.com`,
        passwordHash: 'x',
        language: index % 2 === 0 ? 'es' : 'pt',
      })),
    )
    .returning({ id: users.id });
  return rows.map((row) => row.id);
}

/** A stop-loss hit per user and `perUser` operations closed (switched on for them). */
async function recordEvents(db: Database['db'], userIds: string[], perUser: number) {
  const repository = new NotificationsRepository(db);
  for (const userId of userIds) {
    await repository.saveSettings(
      userId,
      {
        operations: true,
        stop_loss: true,
        robot_stopped: true,
        margin_warning: true,
        daily_summary: true,
      },
      undefined,
    );
    const trade = (id: string) => ({
      id,
      name: 'BTC/USD',
      side: 'buy',
      lots: 0.1,
      openPrice: 100,
      closePrice: 95,
      profit: -5,
      closeReason: 'sl',
    });
    expect(
      await repository.record({
        userId,
        kind: 'stop_loss',
        key: `${userId}:sl:p0`,
        payload: trade('p0'),
      }),
    ).toBe(true);
    for (let index = 0; index < perUser; index++) {
      await repository.record({
        userId,
        kind: 'operation_closed',
        key: `${userId}:closed:p${String(index)}`,
        payload: trade(`p${String(index)}`),
      });
    }
  }
}

describe('the outbox on one database', () => {
  let testDatabase: TestDatabase;
  beforeEach(async () => {
    testDatabase = await createTestDatabase();
  });
  afterEach(async () => {
    await testDatabase.drop();
  });

  it('records an event once, and only for users who want its kind', async () => {
    const { db } = testDatabase.database;
    const [wants, doesNot] = await someUsers(db, 2);
    if (!wants || !doesNot) throw new Error('no users');
    const repository = new NotificationsRepository(db);
    const record = (userId: string, kind: 'operation_opened' | 'robot_stopped') =>
      repository.record({ userId, kind, key: `${userId}:${kind}:1`, payload: {} });
    // Defaults: every fill off, robot-stopped on.
    expect(await record(wants, 'operation_opened')).toBe(false);
    expect(await record(wants, 'robot_stopped')).toBe(true);
    expect(await record(wants, 'robot_stopped')).toBe(false);
    await repository.saveSettings(
      doesNot,
      {
        operations: true,
        stop_loss: false,
        robot_stopped: false,
        margin_warning: false,
        daily_summary: false,
      },
      'America/Bogota',
    );
    expect(await record(doesNot, 'robot_stopped')).toBe(false);
    expect(await record(doesNot, 'operation_opened')).toBe(true);
    expect((await db.select().from(notificationOutbox)).length).toBe(2);
  });

  it('mails a user’s operations together, at most once a minute, and each event once', async () => {
    const { db } = testDatabase.database;
    const [userId] = await someUsers(db, 1);
    if (!userId) throw new Error('no user');
    await recordEvents(db, [userId], 3);
    const mailer = new RecordingMailer();
    const service = processOn(db, 'one', mailer);
    await service.runDue();
    // The stop-loss e-mail and one e-mail with the three operations.
    expect(mailer.sent.map((mail) => mail.subject).sort()).toEqual([
      'Stop-loss en BTC/USD',
      'Tu robot: 0 operaciones abiertas, 3 cerradas',
    ]);
    expect(mailer.sent.find((mail) => mail.subject.startsWith('Tu robot'))?.text).toContain(
      'Resultado: -USD',
    );
    await service.runDue();
    expect(mailer.sent).toHaveLength(2);

    // Another operation within the minute waits for it.
    const repository = new NotificationsRepository(db);
    await repository.record({
      userId,
      kind: 'operation_opened',
      key: `${userId}:opened:p9`,
      payload: {
        id: 'p9',
        name: 'ETH/USD',
        side: 'sale',
        lots: 1,
        openPrice: 10,
        closePrice: null,
        profit: 0,
        closeReason: null,
      },
    });
    await service.runDue();
    expect(mailer.sent).toHaveLength(2);
  });

  it('says what the figures are by where the account lives: simulated, or a broker’s live account', async () => {
    const { db } = testDatabase.database;
    const [simulated, live] = await someUsers(db, 2);
    if (!simulated || !live) throw new Error('no users');
    await db.insert(tradingPlatformLinks).values({
      userId: live,
      platform: 'ctrader',
      platformAccountId: 'ct-4400201',
      linkedAt: new Date(),
      brokerAccount: {
        ctidTraderAccountId: 4_400_201,
        live: true,
        brokerName: 'Broker',
        currency: 'USD',
        leverage: 30,
        traderLogin: 1001,
      },
    });
    await recordEvents(db, [simulated, live], 0);
    const mailer = new RecordingMailer();
    await processOn(db, 'one', mailer).runDue();
    const to = (index: number) =>
      mailer.sent.find((mail) => mail.to === `user${String(index)}@example.com`)?.text;
    expect(to(0)).toContain('plataforma simulada de Tradebot');
    expect(to(1)).toContain('Valores da sua conta real na sua corretora cTrader');
    expect(to(1)).not.toContain('simulad');
  });

  it('forgets delivered rows past their retention, keeps the rest, and prunes once an hour', async () => {
    const { db } = testDatabase.database;
    const [userId] = await someUsers(db, 1);
    if (!userId) throw new Error('no user');
    const repository = new NotificationsRepository(db);
    const keys = ['old', 'recent'].map((name) => `${userId}:prune:${name}`);
    for (const key of keys) {
      await repository.record({ userId, kind: 'robot_stopped', key, payload: {} });
    }
    const age = async (key: string, ms: number) =>
      db.execute(sql`update notification_outbox
        set delivered_at = now() - ${ms} * interval '1 millisecond', outcome = 'sent'
        where event_key = ${key}`);
    await age(keys[0] ?? '', deliveredNotificationsKeptMs + 86_400_000);
    await age(keys[1] ?? '', 86_400_000);
    const service = processOn(db, 'one', new RecordingMailer());
    await service.runDue();
    const left = async () =>
      (await db.select({ key: notificationOutbox.eventKey }).from(notificationOutbox))
        .map((row) => row.key)
        .filter((key) => key.includes(':prune:'))
        .sort();
    expect(await left()).toEqual([keys[1]]);
    // Within the hour nobody prunes again, whichever process runs.
    await age(keys[1] ?? '', deliveredNotificationsKeptMs + 86_400_000);
    await processOn(db, 'two', new RecordingMailer()).runDue();
    expect(await left()).toContain(keys[1]);
  });

  it('a process that died between claiming an e-mail and sending it: sent once, after its lease', async () => {
    const { db } = testDatabase.database;
    const [userId] = await someUsers(db, 1);
    if (!userId) throw new Error('no user');
    await recordEvents(db, [userId], 0);
    // The dead process claimed the stop-loss e-mail and never sent it.
    const dead = new DrizzleJobClaims(db, 'dead', 300);
    expect((await dead.claim('notify.email', `${userId}:sl:p0`))?.run).toBe(1);
    const mailer = new RecordingMailer();
    const service = processOn(db, 'alive', mailer);
    await service.runDue();
    expect(mailer.sent).toHaveLength(0);
    await sleep(350);
    await service.runDue();
    expect(mailer.sent.map((mail) => mail.subject)).toEqual(['Stop-loss en BTC/USD']);
    await sleep(350);
    await service.runDue();
    expect(mailer.sent).toHaveLength(1);
  });

  it('a failed send is retried at the next run, and sent once', async () => {
    const { db } = testDatabase.database;
    const [userId] = await someUsers(db, 1);
    if (!userId) throw new Error('no user');
    await recordEvents(db, [userId], 0);
    const sent: MailMessage[] = [];
    let refuse = true;
    const flaky: Mailer = {
      send: (message) => {
        if (refuse) return Promise.reject(new Error('mail server down'));
        sent.push(message);
        return Promise.resolve();
      },
      close: () => Promise.resolve(),
    };
    const errors: unknown[] = [];
    const service = new NotificationService({
      repository: new NotificationsRepository(db),
      claims: new DrizzleJobClaims(db, 'flaky', 60_000),
      windows: new DrizzleOncePerWindow(db, 'flaky'),
      mailer: flaky,
      clock: systemClock,
      robotNow: () => Date.now(),
      links: () => ({ dashboard: 'http://x/d', settings: 'http://x/s', payment: 'http://x/p' }),
      dayFigures: () => Promise.resolve(undefined),
      houseAccountId: '00000000-0000-0000-0000-000000000000',
      onError: (error) => errors.push(error),
    });
    await service.runDue();
    expect(errors).toHaveLength(1);
    refuse = false;
    await service.runDue();
    await service.runDue();
    expect(sent).toHaveLength(1);
  });

  it('three processes racing on one connection: each e-mail once', async () => {
    const { db } = testDatabase.database;
    const userIds = await someUsers(db, 10);
    await recordEvents(db, userIds, 2);
    const mailer = new RecordingMailer();
    const processes = ['a', 'b', 'c'].map((owner) => processOn(db, owner, mailer));
    await Promise.all(processes.map((process) => process.runDue()));
    await Promise.all(processes.map((process) => process.runDue()));
    // Per user: a stop-loss e-mail and one with both operations.
    expect(mailer.sent).toHaveLength(20);
    const perRecipient = new Map<string, number>();
    for (const mail of mailer.sent) perRecipient.set(mail.to, (perRecipient.get(mail.to) ?? 0) + 1);
    expect([...perRecipient.values()].every((count) => count === 2)).toBe(true);
  });

  describe.skipIf(testEngine !== 'postgres')('on PostgreSQL, each process on its own pool', () => {
    const opened: Database[] = [];
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((database) => database.close()));
    });

    it('three processes racing 40 users’ events: each e-mail once', async () => {
      const { db } = testDatabase.database;
      const userIds = await someUsers(db, 40);
      await recordEvents(db, userIds, 3);
      const mailer = new RecordingMailer();
      const processes: NotificationService[] = [];
      for (const owner of ['a', 'b', 'c']) {
        const database = await openDatabase({
          databaseUrl: process.env.TEST_DATABASE_URL ?? '',
          searchPath: testDatabase.schema,
          poolSize: 4,
        });
        opened.push(database);
        processes.push(processOn(database.db, owner, mailer));
      }
      for (let round = 0; round < 3; round++) {
        await Promise.all(processes.map((process) => process.runDue()));
      }
      expect(mailer.sent).toHaveLength(80);
      expect(new Set(mailer.sent.map((mail) => `${mail.to}|${mail.subject}`)).size).toBe(80);
    });
  });
});

describe('notifications of the running robot', () => {
  const context = useRobotApp(
    { LOG_LEVEL: 'error' },
    { billingTimers: false, notificationTimers: false },
  );

  it('the settings: defaults, saved, validated in the user’s language, and private', async () => {
    const { app } = context;
    const { headers } = await trader(app, { botOn: false });
    const read = await app.inject({ url: settingsPath, headers });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({
      data: {
        operations: false,
        stop_loss: true,
        robot_stopped: true,
        margin_warning: true,
        daily_summary: true,
        time_zone: null,
      },
    });
    const change = {
      operations: true,
      stop_loss: false,
      robot_stopped: true,
      margin_warning: false,
      daily_summary: false,
      time_zone: 'America/Sao_Paulo',
    };
    const saved = await app.inject({ method: 'PUT', url: settingsPath, headers, payload: change });
    expect(saved.statusCode).toBe(200);
    expect((await app.inject({ url: settingsPath, headers })).json()).toEqual({ data: change });

    const wrong = await app.inject({
      method: 'PUT',
      url: settingsPath,
      headers: { ...headers, 'accept-language': 'pt' },
      payload: { ...change, time_zone: 'Mars/Olympus', daily_summary: 'yes' },
    });
    expect(wrong.statusCode).toBe(422);
    const body = wrong.json<{ message: string; errors: Record<string, string[]> }>();
    expect(Object.keys(body.errors).sort()).toEqual(['daily_summary', 'time_zone']);
    expect(body.message).not.toMatch(/at |Error/);
    expect((await app.inject({ url: settingsPath })).statusCode).toBe(401);
  });

  it('a closed operation reaches the user by e-mail once; the kill switch says the robot stopped', async () => {
    const { app } = context;
    const email = 'fills@example.com';
    const { userId, headers } = await trader(app, { email });
    await app.inject({
      method: 'PUT',
      url: settingsPath,
      headers,
      payload: {
        operations: true,
        stop_loss: true,
        robot_stopped: true,
        margin_warning: true,
        daily_summary: false,
      },
    });
    expect(await runMarket(context, async () => (await openCount(app, userId)) >= 1)).toBe(true);
    await app.services.notifications.settled();
    await app.services.notifications.runDue();
    const opened = await mailsTo(app, email);
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatch(/Subject: .*Tu robot/);

    const killed = await app.inject({ method: 'POST', url: `${v1}/robot/kill`, headers });
    expect(killed.statusCode).toBe(200);
    const closed = (await storedTrades(app, userId)).filter((trade) => trade.closedAt !== null);
    expect(closed.length).toBeGreaterThanOrEqual(1);
    await app.services.notifications.settled();
    await app.services.notifications.runDue();
    const mails = await mailsTo(app, email);
    // The robot-stopped e-mail at once; the closed operations wait for the user's minute.
    expect(mails).toHaveLength(2);
    expect(mails.some((mail) => mail.includes('Tu robot se detuvo'))).toBe(true);
    await app.services.notifications.runDue();
    expect(await mailsTo(app, email)).toHaveLength(2);
  });

  it('the daily summary at the user’s evening, once, with the day’s figures', async () => {
    const { app } = context;
    const email = 'summary@example.com';
    const { userId, headers } = await trader(app, { email });
    // 12:00 UTC is 21:00 in Tokyo: past the summary's hour.
    await app.inject({
      method: 'PUT',
      url: settingsPath,
      headers,
      payload: {
        operations: false,
        stop_loss: false,
        robot_stopped: false,
        margin_warning: false,
        daily_summary: true,
        time_zone: 'Asia/Tokyo',
      },
    });
    expect(await runMarket(context, async () => (await openCount(app, userId)) >= 1)).toBe(true);
    await robotOf(app).settled();
    await app.services.notifications.runDue();
    await app.services.notifications.runDue();
    const mails = await mailsTo(app, email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatch(/Subject: .*resumen/);
  });
});
