import { randomBytes } from 'node:crypto';
import { apiV1Prefix, billingPaths } from '@tradebot/contract';
import type { FastifyInstance } from 'fastify';
import { listeningUrl } from '../../composition/links';
import { SimulatedPaymentProvider } from '../../payments/simulated/simulated-provider';
import { StripePaymentProvider } from '../../payments/stripe/stripe-provider';
import type { ClockedPaymentProvider } from '../../services/billing.service';

/** Stripe when its keys are set, else the simulated provider (decision 047). */
export function createPaymentProvider(
  app: FastifyInstance,
  timers: boolean,
): ClockedPaymentProvider {
  const { config } = app;
  if (config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET) {
    return new StripePaymentProvider({
      secretKey: config.STRIPE_SECRET_KEY,
      webhookSecret: config.STRIPE_WEBHOOK_SECRET,
    });
  }
  return new SimulatedPaymentProvider({
    db: app.database.db,
    clock: app.clock,
    // Both ends are in this process: a secret drawn at start serves unless several processes
    // share the simulated provider (then SIM_PAY_WEBHOOK_SECRET).
    secret: config.SIM_PAY_WEBHOOK_SECRET ?? randomBytes(32).toString('hex'),
    // Nothing is sent before this server listens, even to SIM_PAY_WEBHOOK_URL (a proxy in
    // front of it): a try then fails and backs off for a minute (issue 18).
    webhookUrl: () => {
      const base = listeningUrl(app);
      if (!base) return undefined;
      return (
        config.SIM_PAY_WEBHOOK_URL ?? `${base}${apiV1Prefix}${billingPaths.webhooks}/simulated`
      );
    },
    autoDeliver: timers,
    claims: app.jobClaims,
    onError: (error, what) => {
      app.log.error({ err: error }, `payments: ${what} failed`);
    },
    onRetry: (retry) => {
      app.log.warn(retry, 'payments: a webhook delivery failed; it is tried again with backoff');
    },
  });
}
