import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { closeRevokedSockets, registerRealtime } from '../../realtime/socket-gateway';

/**
 * The Socket.IO gateway (spec §4): decorates `app.realtime`; in scaled mode its presence
 * heartbeat is a job (decision 145). A socket that connects gets the account's live figures
 * (issue 40). A session that ends closes its sockets (after the session cache has dropped it:
 * the foundation subscribed first).
 */
export const realtime = fp(
  async (app: FastifyInstance) => {
    const { presenceHeartbeat } = await registerRealtime(app, app.config, {
      auth: app.services.auth,
      ...(app.scaledCommands ? { accountCommands: app.scaledCommands } : {}),
      // A socket that connects shows the account as it is now (issue 40).
      currentInfo: (userId) => app.services.trading.liveInfo(userId),
    });
    // Scaled mode: this process's users re-announced to the others, in every process.
    if (presenceHeartbeat) {
      app.jobs.add({
        name: 'realtime-presence',
        everyMs: presenceHeartbeat.everyMs,
        run: async () => {
          presenceHeartbeat.run();
        },
        failure: 'realtime: the presence heartbeat failed',
      });
    }
    app.events.on('SessionsRevoked', (revoked) => {
      closeRevokedSockets(app.realtime, revoked);
    });
  },
  { name: 'realtime', dependencies: ['foundation', 'robot', 'accounts', 'trading'] },
);
