import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { BillingRepository } from '../../repositories/billing.repository';
import { AccessChangesService } from '../../services/access-changes.service';

/**
 * What follows a change of access, link or broker grant (decision 104): the robots trade as the
 * user's access and links are now, and a robot that access stopped is told about. It reacts to
 * billing's and linking's events.
 */
export const access = fp(
  async (app: FastifyInstance) => {
    const { trading, notifications } = app.services;
    const billingStore = new BillingRepository(app.database.db);
    const changes = new AccessChangesService({
      users: app.users,
      endLapsedAccess: (now) => billingStore.endLapsedAccess(now),
      // Every process's robot, in the scaled set-up: the account may be held by another.
      grantsChanged: () => app.accountCommands.grantsChanged(),
      applyStoredSettings: (userId) => trading.applyStoredSettings(userId),
      tellAccessEnded: (userId) => notifications.accessEnded(userId),
    });
    // Access that ended while this server was down was taken away before the robot loaded; its
    // users hear of it as they would have at billing's run.
    for (const userId of app.lapsedWhileDown) await changes.tellIfAccessStoppedRobot(userId);
    app.events.on('AccessChanged', ({ userId }) => changes.accessChanged(userId));
    app.events.on('BrokerLinked', ({ userId }) => changes.linkChanged(userId));
    app.events.on('BrokerUnlinked', ({ userId }) => changes.linkChanged(userId));
    app.events.on('GrantRefreshed', () => changes.tokenRefreshed());
  },
  { name: 'access', dependencies: ['foundation', 'robot', 'trading', 'notifications'] },
);
