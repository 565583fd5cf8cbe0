/**
 * A robot process holding accounts by lease (decision 092), as a server process runs its robot
 * with ROBOT_LEASES, without the HTTP side: the account-leases test starts three of them on one
 * PostgreSQL schema, kills them with SIGKILL, pauses them with SIGSTOP and cuts them from the
 * database. It trades with a strategy that signals on every tick. What its robot tells the main
 * thread about leases goes to stdout, one JSON line each, with the wall time.
 * Environment: DATABASE_URL, SCHEMA, OWNER, LEASE_MS, RENEW_MS, MARGIN_MS, TICK_MS, ORIGIN (the
 * robot's time at WALL_ORIGIN, epoch ms; shared by the processes of one test), SPEED (the
 * market's, 1 unless set), CRASH_AT (a test-only crash point, decision 092 amended), CAPACITY (1,000 unless set),
 * BUSY_MS (how long SIGUSR2 keeps the robot's thread busy).
 */
import { FixedSignalStrategy } from '@tradebot/robot';
import { openDatabase } from '../../src/db/database';
import { RobotHost, type HostPort } from '../../src/robot/worker/robot-host';
import type { ClientMessage, HostMessage } from '../../src/robot/protocol/robot-protocol';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} must be set`);
  return value;
};

const say = (line: Record<string, unknown>) => {
  process.stdout.write(`${JSON.stringify({ at: Date.now(), ...line })}\n`);
};

const database = await openDatabase({
  databaseUrl: env('DATABASE_URL'),
  searchPath: env('SCHEMA'),
  poolSize: 4,
});
let listener: ((message: ClientMessage) => void) | undefined;
let stopped: () => void = () => undefined;
const port: HostPort = {
  postMessage(message: HostMessage) {
    switch (message.type) {
      case 'leases':
        say({ type: 'leases', message: message.message, accounts: message.accountIds });
        return;
      case 'failure':
        say({ type: 'failure', message: `${message.what}: ${message.message}` });
        return;
      case 'answer':
        if (message.id === 1) stopped();
        return;
      case 'ready':
      case 'refusal':
      case 'events':
      case 'released':
      case 'info':
        return;
    }
  },
  on(_event, next) {
    listener = next;
  },
};
// SIGUSR2 (tests; registered before `ready` is said, so a signal sent on `ready` finds it): this thread, the robot's, is busy for BUSY_MS without a break, as a robot
// with far more work than time would be; the keeper's thread goes on renewing.
process.on('SIGUSR2', () => {
  const until = Date.now() + Number(process.env.BUSY_MS ?? 0);
  say({ type: 'busy' });
  while (Date.now() < until) {
    // Spin: nothing else runs on this thread meanwhile.
  }
  say({ type: 'free' });
});
const tickMs = Number(env('TICK_MS'));
await RobotHost.start(
  port,
  {
    clock: {
      kind: 'wall',
      origin: Number(env('ORIGIN')),
      wallOrigin: Number(env('WALL_ORIGIN')),
      speed: Number(process.env.SPEED ?? '1'),
    },
    marketTickMs: tickMs,
    marketSeed: process.pid,
    autoAdvance: true,
    quoteSaveMs: 5_000,
    warmUpMs: 0,
    mirrorMs: 0,
    ...(process.env.CRASH_AT
      ? { testOnlyCrashAt: process.env.CRASH_AT as 'intent-stored' | 'platform-accepted' }
      : {}),
    leases: {
      owner: env('OWNER'),
      leaseMs: Number(env('LEASE_MS')),
      renewMs: Number(env('RENEW_MS')),
      marginMs: Number(env('MARGIN_MS')),
      capacity: Number(process.env.CAPACITY ?? 1_000),
    },
  },
  database.db,
  {
    strategy: new FixedSignalStrategy(0.999, ['buy', 'sale']),
    // The keeper on its own thread, as a server process on PostgreSQL runs it (benchmarks set
    // KEEPER_ON_ROBOT_THREAD to measure the keeper sharing the robot's thread, as before).
    ...(process.env.KEEPER_ON_ROBOT_THREAD ? {} : { leaseLink: database.link() }),
  },
);
say({ type: 'ready' });

// SIGTERM: the robot stops (its writes land), its leases go back, then the process ends.
process.on('SIGTERM', () => {
  stopped = () => {
    void database.close().then(() => {
      say({ type: 'stopped' });
      process.exit(0);
    });
  };
  listener?.({ op: 'stop', id: 1, now: Date.now() } as ClientMessage);
});
