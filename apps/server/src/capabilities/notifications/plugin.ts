import { apiV1Prefix } from '@tradebot/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { supportInbox } from '../../config';
import { notificationRoutes } from '../../http/v1/notifications.routes';
import { NotificationsRepository } from '../../repositories/notifications.repository';
import { DrizzleOncePerWindow } from '../../repositories/once-per-window.repository';
import { houseAccount } from '../../repositories/track-record.repository';
import {
  loadOrCreateVapidKeys,
  pushDelivery,
  PushSubscriptionsRepository,
  type PushTestService,
  vapidKeyFile,
  webPushSender,
} from '../../repositories/web-push.repository';
import { MoneyNoticesRepository } from '../../repositories/money-notices.repository';
import { MoneyNoticesService } from '../../services/money-notices.service';
import { NotificationService } from '../../services/notification.service';
import { provide } from '../services';

/** How often notifications waiting in the outbox are gathered and mailed (decision 088). */
const notificationTickMs = 5_000;
/** How often renewals and free months are looked at for their notice (decision 148). */
const moneyNoticesTickMs = 10 * 60_000;

export interface NotificationsOptions {
  /**
   * Gather and mail notifications on a timer (default). Tests turn it off and call
   * `services.notifications.runDue()`.
   */
  timers: boolean;
  /**
   * Tests only: a local push service whose endpoints are taken besides the browsers' push
   * services (decision 115); refused unless NODE_ENV=test.
   */
  pushTestService?: PushTestService | undefined;
}

/** The notification outbox (decision 088): the robot's news and the account's, by mail and push. */
export const notifications = fp(
  async (app: FastifyInstance, options: NotificationsOptions) => {
    const { config, database, jobClaims, links, events } = app;
    const { db } = database;
    // Web push's VAPID keys, made once into DATA_DIR/secrets like the other keys.
    const vapidKeys = await loadOrCreateVapidKeys(vapidKeyFile(config.dataDir));
    // Only the browsers' push services, over an agent that connects to public addresses only
    // (decision 115).
    const push = pushDelivery(config.NODE_ENV, options.pushTestService);
    app.addHook('onClose', () => {
      push.agent.destroy();
    });
    const { trading } = app.services;
    const service = new NotificationService({
      push: {
        publicKey: vapidKeys.publicKey,
        accepts: push.accepts,
        subscriptions: new PushSubscriptionsRepository(db),
        sender: webPushSender(vapidKeys, `mailto:${supportInbox(config)}`, push),
        onNotDelivered: ({ host, reason }) => {
          app.log.warn({ host, reason }, 'notifications: a push was not delivered');
        },
      },
      repository: new NotificationsRepository(db),
      claims: jobClaims,
      windows: new DrizzleOncePerWindow(db, jobClaims.owner),
      mailer: app.mailer,
      clock: app.clock,
      robotNow: app.robotNow,
      links: (language) => ({
        dashboard: links.pageUrl(language, '/dashboard'),
        settings: links.pageUrl(language, '/profile-config'),
        payment: links.pageUrl(language, '/payment'),
      }),
      dayFigures: (userId, since) => trading.dayFigures(userId, since),
      houseAccountId: houseAccount.accountId,
      onError: (error, what) => {
        app.log.error({ err: error }, `notifications: ${what} failed`);
      },
    });
    provide(app, { notifications: service });
    events.on('KillSwitchPulled', ({ userId, closed }) => service.killSwitchPulled(userId, closed));
    // Money notices (decision 148): the job for the days before a renewal and the free month's
    // end, billing's event for a charge that failed. Recorded into the same outbox.
    const moneyNotices = new MoneyNoticesService({
      store: new MoneyNoticesRepository(db),
      claims: jobClaims,
      clock: app.clock,
      onError: (error, what) => {
        app.log.error({ err: error }, `notifications: ${what} failed`);
      },
    });
    provide(app, { moneyNotices });
    events.on('ChargeFailed', ({ userId }) => moneyNotices.chargeFailed(userId));
    // The robot's stream feeds the outbox; once the robot has stopped (robot runtime, which
    // closes first), what it sent last is written before the database closes.
    const stopListening = app.robot?.onEvent((event) => {
      service.robotEvent(event);
    });
    app.addHook('onClose', async () => {
      stopListening?.();
      await service.settled();
      await service.idle();
    });
    // In every process: claims keep each e-mail to one of them.
    if (options.timers) {
      app.jobs.add({
        name: 'notifications',
        everyMs: notificationTickMs,
        run: () => service.runDue(),
        failure: 'notifications: the clock run failed',
      });
      app.jobs.add({
        name: 'money-notices',
        everyMs: moneyNoticesTickMs,
        run: () => moneyNotices.runDue(),
        failure: 'notifications: looking for money notices failed',
      });
      // At start too: a notice due while the server was down is not left for ten minutes.
      app.addHook('onListen', () => {
        void app.jobs.runNow('money-notices');
      });
    }
    await app.register(notificationRoutes, { prefix: apiV1Prefix });
  },
  { name: 'notifications', dependencies: ['foundation', 'http', 'robot', 'trading'] },
);
