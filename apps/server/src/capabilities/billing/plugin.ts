import { apiV1Prefix, simulatedPaymentsPath } from '@tradebot/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { billingRoutes } from '../../http/v1/billing.routes';
import { simulatedCheckoutRoutes } from '../../payments/simulated/checkout.routes';
import { SimulatedPaymentProvider } from '../../payments/simulated/simulated-provider';
import { BillingRepository } from '../../repositories/billing.repository';
import { BillingService, type ClockedPaymentProvider } from '../../services/billing.service';
import { provide } from '../services';
import { createPaymentProvider } from './payment-provider';

/** How often billing looks at the clock: renewals, free months and access that ended. */
const billingTickMs = 60_000;
/** How often the simulated provider retries the webhook deliveries that are due. */
const webhookRetryMs = 1_000;

export interface BillingOptions {
  /**
   * Run billing's clock (renewals, lapsed access) and the simulated provider's deliveries on
   * timers (default). Tests turn them off and call `services.billing.runDue()`.
   */
  timers: boolean;
  /** The payment provider; otherwise Stripe when its keys are set, else the simulated one. */
  paymentProvider?: ClockedPaymentProvider | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Billing's repository (the support console reads subscriptions through it). */
    billingStore: BillingRepository;
  }
}

/**
 * Plans, checkout, the provider's webhooks, refunds and billing's clock. A change of access is
 * published as `AccessChanged`, a charge that failed as `ChargeFailed`.
 */
export const billing = fp(
  async (app: FastifyInstance, options: BillingOptions) => {
    const { robot, scaledCommands, tradingRepository, events, jobs } = app;
    const payments = options.paymentProvider ?? createPaymentProvider(app, options.timers);
    const store = new BillingRepository(app.database.db);
    app.decorate('billingStore', store);
    const service = new BillingService({
      repository: store,
      provider: payments,
      users: app.users,
      mailer: app.mailer,
      claims: app.jobClaims,
      clock: app.clock,
      // The yearly plan's gift: deposited by the process holding the account in the scaled
      // set-up (decision 105), whichever process runs the grant; by this process's robot
      // otherwise.
      platform: scaledCommands
        ? {
            hasAccount: async (accountId) =>
              (await tradingRepository.platformAccount(accountId)) !== undefined,
            now: app.robotNow,
            deposit: (accountId, cents) => scaledCommands.deposit(accountId, cents),
          }
        : robot,
      publicUrl: () => app.links.base(),
      onAccessChanged: (userId) => events.publish('AccessChanged', { userId }),
      onChargeFailed: (userId) => events.publish('ChargeFailed', { userId }),
      onError: (error, what) => {
        app.log.error({ err: error }, `billing: ${what} failed`);
      },
      onIgnoredEvent: ({ id, type }) => {
        app.log.info(
          { eventId: id, eventType: type },
          'billing: event about an unknown object ignored',
        );
      },
      onDuplicate: ({ userId, subscriptionId }) => {
        app.log.warn({ userId, subscriptionId }, 'billing: a second subscription refunded at once');
      },
    });
    provide(app, { billing: service });

    if (options.timers) {
      if (payments instanceof SimulatedPaymentProvider) {
        jobs.add({
          name: 'payment-webhooks',
          everyMs: webhookRetryMs,
          run: () => payments.deliverDue(),
          failure: 'payments: delivering simulated payment webhooks failed',
        });
      }
      jobs.add({
        name: 'billing',
        everyMs: billingTickMs,
        run: () => service.runDue(),
        failure: 'billing: the clock run failed',
      });
      // Once the server listens, billing runs at once: renewals and access that ended while it
      // was down, and the events recorded during start-up, delivered now rather than a tick
      // later.
      app.addHook('onListen', () => {
        void jobs.runNow('billing');
      });
    }
    // Gifts that a stop interrupted are granted before anything else happens (before the jobs
    // start: they are registered last).
    app.addHook('onReady', () => service.grantPendingGifts());
    app.addHook('onClose', async () => {
      if (payments instanceof SimulatedPaymentProvider) await payments.stop();
    });

    await app.register(billingRoutes, { prefix: apiV1Prefix });
    if (payments instanceof SimulatedPaymentProvider) {
      const { geo } = app.services;
      await app.register(
        simulatedCheckoutRoutes(payments, (ip) => geo.countryCodeOf(ip)),
        { prefix: simulatedPaymentsPath },
      );
    }
  },
  { name: 'billing', dependencies: ['foundation', 'http', 'geo', 'robot', 'access'] },
);
