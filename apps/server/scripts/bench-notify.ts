// npm run bench:notify (decision 088): from a fill to its push handed to the push service, with
// 1,000 subscribers, against a baseline measured in the same run. Writes its section of
// docs/benchmarks.md.
//
// A local HTTPS push service (a certificate made for the run) stamps each POST's arrival.
// Ours: 1,000 users, each with operations switched on and one push subscription; one fill each
// (a PositionOpened of the robot's stream) at the same instant, then the outbox's clock runs
// back to back (runDue) until every push arrived: recorded, batched into its minute, claimed
// (decision 078), mailed (a mailer that keeps nothing: the mail server is not measured), pushed
// with `web-push`. Baseline: the same 1,000 payloads pushed with the same sender straight away,
// no outbox. Latency per subscriber: arrival - the instant of the fills. PGlite in memory.
import { createECDH, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { TradeRow } from '@tradebot/contract';
import * as prettier from 'prettier';
import { migrationsFolder } from '../src/app';
import { openDatabase } from '../src/db/database';
import { migrate, readMigrations } from '../src/db/migrate';
import { users } from '../src/db/schema';
import { systemClock } from '../src/repositories/clock';
import { DrizzleJobClaims } from '../src/repositories/job-claims.repository';
import { NotificationsRepository } from '../src/repositories/notifications.repository';
import { DrizzleOncePerWindow } from '../src/repositories/once-per-window.repository';
import {
  publicPushAgent,
  PushSubscriptionsRepository,
  webPushSender,
  type StoredPushSubscription,
} from '../src/repositories/web-push.repository';
import type { AccountProjection } from '../src/robot/protocol/robot-protocol';
import { NotificationService } from '../src/services/notification.service';
import { startLocalPushService } from '../test/helpers/push-service';
import webpush from 'web-push';

const subscribers = Number(process.env.BENCH_SUBSCRIBERS ?? 1000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const root = path.resolve(import.meta.dirname, '../../..');

// The push service.
const arrivals = new Map<string, number>();
const service = await startLocalPushService((request) => {
  arrivals.set(request.url ?? '', performance.now());
  return 201;
});
const pushUrl = service.url;
const cert = service.certificate;
// The production agent (public addresses only; decision 115), the local service's address let
// through and its certificate trusted.
const agent = publicPushAgent({ ca: cert, allowAddresses: ['127.0.0.1'] });
const sender = webPushSender(webpush.generateVAPIDKeys(), 'mailto:bench@example.com', {
  agent,
  accepts: (endpoint) => endpoint.startsWith(`${pushUrl}/`),
});

function subscription(endpoint: string): StoredPushSubscription {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint,
    p256dh: ecdh.getPublicKey().toString('base64url'),
    auth: randomBytes(16).toString('base64url'),
  };
}

const database = await openDatabase({});
await migrate(database.db, await readMigrations(migrationsFolder));
const { db } = database;
const notifications = new NotificationsRepository(db);
const subscriptions = new PushSubscriptionsRepository(db);
const silentMailer = { send: () => Promise.resolve(), close: () => Promise.resolve() };
const notificationService = new NotificationService({
  repository: notifications,
  claims: new DrizzleJobClaims(db, 'bench'),
  windows: new DrizzleOncePerWindow(db, 'bench'),
  mailer: silentMailer,
  clock: systemClock,
  robotNow: () => Date.now(),
  links: () => ({
    dashboard: 'https://x/dashboard',
    settings: 'https://x/profile-config',
    payment: 'https://x/payment',
  }),
  dayFigures: () => Promise.resolve(undefined),
  houseAccountId: '00000000-0000-0000-0000-000000000000',
  push: {
    publicKey: 'unused',
    accepts: (endpoint) => endpoint.startsWith(`${pushUrl}/`),
    subscriptions,
    sender,
    onNotDelivered: ({ reason }) => {
      throw new Error(`a push was not delivered: ${reason}`);
    },
  },
  onError: (error) => {
    throw error;
  },
});

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};
const latencies = (prefix: string, start: number) =>
  [...arrivals].filter(([url]) => url.startsWith(prefix)).map(([, at]) => at - start);

const trade = (id: string): TradeRow => ({
  Amount: 0.1,
  CloseTime: null,
  Cmd: 0,
  Icon1: '',
  Icon2: '',
  OpenTime: new Date().toISOString(),
  OutputName: 'Bitcoin (BTC/USD)',
  Profit: 0,
  id,
  symbol: 'BTCUSD',
  category: 'cripto',
  side: 'buy',
  units: 1,
  openPrice: 100,
  closePrice: null,
  takeProfit: 101,
  stopLoss: 95,
  status: 'open',
  closeReason: null,
  probability: 0.97,
  breakEvenProbability: 0.93,
  margin: 1,
  value: null,
  currency: 'USD',
});
const projection = (accountId: string): AccountProjection => ({
  accountId,
  figures: {} as AccountProjection['figures'],
  currency: 'USD',
  account: {
    balance: 10_000,
    freeMargin: 9_999,
    equity: 10_000,
    earnings: 0,
    deposits: 10_000,
    usedMargin: 1,
    exposure: 0.0001,
    exposureCap: 0.5,
  },
  status: { idleReason: null },
  trades: [],
});

interface Round {
  round: number;
  baseline: { p50: number; p99: number };
  ours: { p50: number; p99: number };
}
const results: Round[] = [];

for (let round = 1; round <= rounds; round++) {
  // Fresh users each round: each user's operations get one e-mail a minute.
  const ids = (
    await db
      .insert(users)
      .values(
        Array.from({ length: subscribers }, (_, index) => ({
          name: 'Bench',
          lastName: 'Mark',
          email: `bench-${String(round)}-${String(index)}@example.com`,
          passwordHash: 'none',
        })),
      )
      .returning({ id: users.id })
  ).map((row) => row.id);
  for (const userId of ids) {
    await notifications.saveSettings(
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
    await subscriptions.save(userId, subscription(`${pushUrl}/r${String(round)}/ours/${userId}`));
  }
  const baselineSubscriptions = ids.map((userId) =>
    subscription(`${pushUrl}/r${String(round)}/base/${userId}`),
  );
  const payload = JSON.stringify({ title: 'Tu robot', body: 'Abrió: compra de BTC', url: '/' });

  // Baseline: straight to the push service.
  const baseStart = performance.now();
  // As many at a time as the outbox delivers (16), so that only the outbox's work differs.
  const queue = [...baselineSubscriptions];
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let sub = queue.shift(); sub; sub = queue.shift()) await sender.send(sub, payload);
    }),
  );
  const base = latencies(`/r${String(round)}/base/`, baseStart);

  // Ours: the fills, then the outbox's clock until every push arrived.
  const start = performance.now();
  for (const [index, userId] of ids.entries()) {
    notificationService.robotEvent({
      type: 'PositionOpened',
      seq: index,
      accountId: userId,
      trade: trade(`r${String(round)}-${String(index)}`),
      projection: projection(userId),
    });
  }
  const oursPrefix = `/r${String(round)}/ours/`;
  while (latencies(oursPrefix, start).length < subscribers) {
    await notificationService.runDue();
  }
  const ours = latencies(oursPrefix, start);
  results.push({
    round,
    baseline: { p50: percentile(base, 50), p99: percentile(base, 99) },
    ours: { p50: percentile(ours, 50), p99: percentile(ours, 99) },
  });
  console.log(JSON.stringify(results.at(-1)));
}

agent.destroy();
await service.close();
await database.close();

const ms = (value: number) => value.toFixed(0);
const ratios = results.map((result) => result.ours.p99 / result.baseline.p99);
const median = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)] ?? NaN;
const load = os.loadavg()[0]?.toFixed(1) ?? '?';
const section = `<!-- bench:notify:start -->

## Notifications (\`npm run bench:notify\`)

Measured ${new Date().toISOString().slice(0, 10)} on this 2-core shared machine (load average ${load} at the end), PGlite in memory: ${String(subscribers)} users with every fill switched on and one push subscription each, a fill each at the same instant; the latency of a subscriber is the arrival of its push at a local HTTPS push service minus that instant. **Ours**: the fill through the robot's event stream into the outbox, the minute's batch, the job claim, the e-mail (to a mailer that keeps nothing) and the push with \`web-push\`, the outbox's clock running back to back. **Baseline**: the same ${String(subscribers)} pushes handed to the same sender, 16 at a time as the outbox delivers them, no outbox, in the same run. The production clock ticks every 5 s, which adds up to 5 s to each figure of ours.

| round | baseline p50 (ms) | baseline p99 (ms) | ours p50 (ms) | ours p99 (ms) | p99 ours / baseline |
| ----: | ----------------: | ----------------: | ------------: | ------------: | ------------------: |
${results
  .map(
    (result, index) =>
      `| ${String(result.round)} | ${ms(result.baseline.p50)} | ${ms(result.baseline.p99)} | ${ms(result.ours.p50)} | ${ms(result.ours.p99)} | ${(ratios[index] ?? NaN).toFixed(2)} |`,
  )
  .join('\n')}

**Ratio (p99, ours / baseline), median of ${String(rounds)} rounds: ${median.toFixed(2)}**

<!-- bench:notify:end -->`;
const file = path.join(root, 'docs/benchmarks.md');
const current = await fs.readFile(file, 'utf8');
const pattern = /<!-- bench:notify:start -->[\s\S]*<!-- bench:notify:end -->/;
const next = pattern.test(current)
  ? current.replace(pattern, section)
  : `${current.trimEnd()}\n\n${section}\n`;
await fs.writeFile(file, await prettier.format(next, { filepath: file }));
console.log(section);
