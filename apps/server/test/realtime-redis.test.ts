import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { useTestApp } from './helpers/app';
import { bearer, registeredToken, v1 } from './helpers/accounts';
import {
  accountInfo,
  connectClient,
  listen,
  withinTimeout,
  type TestClient,
} from './helpers/realtime-client';

const redisUrl = process.env.TEST_REDIS_URL;

// Scaled mode (spec §4 via issue 9): two server processes share one Redis; each app below
// is one of them, with its own Socket.IO server, adapter and Redis connections.
// Tests start other server processes in their own time: on a loaded machine that alone has
// taken more than the default 20 s.
describe.skipIf(!redisUrl)(
  'the real-time channel across processes (Redis adapter)',
  { timeout: 60_000 },
  () => {
    const context = useTestApp(() => ({ REDIS_URL: redisUrl ?? '' }));
    const clients: TestClient[] = [];
    const others: FastifyInstance[] = [];
    afterEach(async () => {
      for (const client of clients.splice(0)) client.socket.close();
      for (const app of others.splice(0)) await app.close();
    });

    /** Another process: same database and Redis, its own port. */
    async function otherProcess(): Promise<{ app: FastifyInstance; address: string }> {
      const app = await buildApp(
        loadConfig({
          NODE_ENV: 'test',
          LOG_LEVEL: 'silent',
          REDIS_URL: redisUrl,
          DATA_DIR: path.join(os.tmpdir(), `tradebot-test-other-${context.testDatabase.schema}`),
          WEB_DIST_DIR: path.join(os.tmpdir(), 'tradebot-no-web-build'),
        }),
        { database: context.testDatabase.database },
      );
      others.push(app);
      return { app, address: await listen(app) };
    }

    async function signedIn(email?: string) {
      const token = await registeredToken(context.app, email);
      const session = await context.app.services.auth.authenticate(token);
      if (!session) throw new Error('no session');
      return { token, userId: session.user.id, sessionId: session.sessionId };
    }

    it('an event emitted by one process reaches a socket connected to the other', async () => {
      const { token, userId } = await signedIn();
      const { address } = await otherProcess();
      const client = await connectClient(address, { auth: { token } });
      clients.push(client);

      // This process holds no socket of the user, yet may not skip the update: the other one
      // said it holds one.
      await vi.waitFor(() => {
        expect(context.app.realtime.hasListeners(userId)).toBe(true);
      });
      context.app.realtime.toUser(userId, accountInfo(42));

      expect(await client.eventAt(0)).toEqual({ info: accountInfo(42) });
    });

    it("disconnectUser in one process closes the user's sockets in the other, and only theirs", async () => {
      const maria = await signedIn();
      const joao = await signedIn('joao@example.com');
      const { address } = await otherProcess();
      const mariaClient = await connectClient(address, { auth: { token: maria.token } });
      const joaoClient = await connectClient(address, { auth: { token: joao.token } });
      clients.push(mariaClient, joaoClient);

      context.app.realtime.disconnectUser(maria.userId);

      expect(await withinTimeout(mariaClient.disconnected, 'the disconnection')).toBe(
        'io server disconnect',
      );
      context.app.realtime.toUser(joao.userId, accountInfo(3));
      expect(await joaoClient.eventAt(0)).toEqual({ info: accountInfo(3) });
    });

    it('logout through one process closes that session’s socket held by the other', async () => {
      const { token } = await signedIn();
      const { address } = await otherProcess();
      const client = await connectClient(address, { auth: { token } });
      clients.push(client);

      const logout = await context.app.inject({
        method: 'POST',
        url: `${v1}/logout`,
        headers: bearer(token),
      });
      expect(logout.statusCode).toBe(200);

      expect(await withinTimeout(client.disconnected, 'the disconnection')).toBe(
        'io server disconnect',
      );
    });

    it('a user counts as listening while, and only while, a socket of theirs is open somewhere', async () => {
      const { token, userId } = await signedIn();
      const { address } = await otherProcess();
      // No socket anywhere: no periodic update is built for them (it used to be, in scaled mode).
      expect(context.app.realtime.hasListeners(userId)).toBe(false);

      const first = await connectClient(address, { auth: { token } });
      const second = await connectClient(address, { auth: { token } });
      clients.push(first, second);
      await vi.waitFor(() => {
        expect(context.app.realtime.hasListeners(userId)).toBe(true);
      });

      // One of two sockets closes: the user still listens.
      first.socket.close();
      await first.disconnected;
      second.socket.close();
      await second.disconnected;
      await vi.waitFor(() => {
        expect(context.app.realtime.hasListeners(userId)).toBe(false);
      });
    });

    it('a process that starts later learns at once who listens on the others', async () => {
      const { token, userId } = await signedIn();
      const holder = await otherProcess();
      clients.push(await connectClient(holder.address, { auth: { token } }));

      // Far sooner than the next refresh (20 s): the newcomer asked, and the holder answered.
      const newcomer = await otherProcess();
      await vi.waitFor(
        () => {
          expect(newcomer.app.realtime.hasListeners(userId)).toBe(true);
        },
        { timeout: 5_000 },
      );
    });

    it('every process runs the presence heartbeat as a job of its own registry', async () => {
      const { token, userId } = await signedIn();
      const holder = await otherProcess();
      clients.push(await connectClient(holder.address, { auth: { token } }));
      expect(context.app.jobs.names()).toContain('realtime-presence');
      expect(holder.app.jobs.names()).toContain('realtime-presence');
      await vi.waitFor(() => {
        expect(context.app.realtime.hasListeners(userId)).toBe(true);
      });
      // A beat re-announces the holder's user and keeps the other process counting them.
      await holder.app.jobs.runNow('realtime-presence');
      await context.app.jobs.runNow('realtime-presence');
      expect(context.app.realtime.hasListeners(userId)).toBe(true);
    });

    it('a process that closes stops counting its users elsewhere', async () => {
      const { token, userId } = await signedIn();
      const holder = await otherProcess();
      clients.push(await connectClient(holder.address, { auth: { token } }));
      await vi.waitFor(() => {
        expect(context.app.realtime.hasListeners(userId)).toBe(true);
      });

      others.splice(others.indexOf(holder.app), 1);
      await holder.app.close();

      await vi.waitFor(() => {
        expect(context.app.realtime.hasListeners(userId)).toBe(false);
      });
    });
  },
);
