// The server side of `npm run bench:realtime` (scripts/bench-realtime.mjs bundles and forks
// it): the real app (buildApp, PGlite, the Socket.IO gateway) on a port, plus a bare
// Socket.IO server on another port for the baseline. The bench drives it over IPC.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  realtimeEventName,
  realtimePath,
  type RealtimeInfo,
  type TradeRow,
} from '@tradebot/contract';
import { Server, type Socket } from 'socket.io';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { sessions, users } from '../src/db/schema';
import { Secrets } from '../src/repositories/secrets';

type Command =
  | { type: 'seed'; count: number }
  | { type: 'memory' }
  | { type: 'fill'; userIds: string[]; round: number }
  | { type: 'bareEmit'; round: number }
  | { type: 'stop' };

const config = loadConfig();
const app = await buildApp(config);
const address = await app.listen({ host: '127.0.0.1', port: 0 });

const bareHttp = createServer();
const bare = new Server(bareHttp, { path: realtimePath, serveClient: false });
let bareSocket: Socket | undefined;
bare.on('connection', (socket) => {
  bareSocket = socket;
});
await new Promise<void>((resolve) => bareHttp.listen(0, '127.0.0.1', resolve));
const bareUrl = `http://127.0.0.1:${String((bareHttp.address() as AddressInfo).port)}`;

function openRow(id: string, index: number): TradeRow {
  return {
    Amount: 0.1,
    CloseTime: null,
    Cmd: 0,
    Icon1: 'eur',
    Icon2: 'usd',
    OpenTime: new Date().toISOString(),
    OutputName: 'EUR/USD',
    Profit: 1.25 * index,
    id,
    symbol: 'EURUSD',
    category: 'forex',
    side: 'buy',
    units: 10_000,
    openPrice: 1.0812,
    closePrice: null,
    takeProfit: 1.0862,
    stopLoss: 1.0787,
    status: 'open',
    closeReason: null,
    probability: 0.61,
    breakEvenProbability: 0.34,
    margin: 108.12,
    value: null,
    currency: 'USD',
  };
}

/** What a fill sends: the account and the open operations, the new one first. */
function fillInfo(round: number): RealtimeInfo {
  return {
    account: {
      balance: 10_000,
      freeMargin: 9_675.64,
      equity: 10_003.75,
      earnings: 3.75,
      deposits: 10_000,
      usedMargin: 324.36,
      exposure: 0.0324,
      exposureCap: 0.5,
    },
    trades: [openRow(`fill-${String(round)}`, 0), openRow('open-1', 1), openRow('open-2', 2)],
  };
}

/** Users and live sessions written in bulk: argon2 at registration would dominate the run. */
async function seed(count: number) {
  const secrets = new Secrets(config.TOKEN_SECRET);
  const db = app.database.db;
  const tokens: string[] = [];
  const userIds: string[] = [];
  const expiresAt = new Date(Date.now() + 24 * 3600_000);
  for (let start = 0; start < count; start += 500) {
    const size = Math.min(500, count - start);
    const created = await db
      .insert(users)
      .values(
        Array.from({ length: size }, (_, index) => ({
          name: 'Bench',
          lastName: 'User',
          email: `bench-${String(start + index)}-${String(Date.now())}@example.com`,
          passwordHash: 'not-a-hash',
        })),
      )
      .returning({ id: users.id });
    const batchTokens = created.map(() => secrets.newToken());
    await db.insert(sessions).values(
      created.map((user, index) => ({
        userId: user.id,
        tokenHash: secrets.hash(batchTokens[index] ?? ''),
        expiresAt,
      })),
    );
    tokens.push(...batchTokens);
    userIds.push(...created.map((user) => user.id));
  }
  return { tokens, userIds };
}

async function memory() {
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let pass = 0; pass < 3; pass++) {
    gc?.();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return process.memoryUsage();
}

function send(message: unknown) {
  process.send?.(message);
}

process.on('message', (command: Command) => {
  void (async () => {
    switch (command.type) {
      case 'seed':
        send({ type: 'seeded', ...(await seed(command.count)) });
        break;
      case 'memory':
        send({ type: 'memory', usage: await memory() });
        break;
      case 'fill': {
        // The clock starts when the platform's fill reaches the publisher (toUser).
        const sentAt: string[] = [];
        const info = fillInfo(command.round);
        for (const userId of command.userIds) {
          sentAt.push(process.hrtime.bigint().toString());
          app.realtime.toUser(userId, info);
        }
        send({ type: 'filled', round: command.round, sentAt });
        break;
      }
      case 'bareEmit': {
        const info = fillInfo(command.round);
        const sentAt = process.hrtime.bigint().toString();
        bareSocket?.emit(realtimeEventName, { info });
        send({ type: 'bareEmitted', round: command.round, sentAt });
        break;
      }
      case 'stop':
        await bare.close();
        await app.close();
        process.exit(0);
    }
  })();
});

send({ type: 'ready', url: address, bareUrl });
