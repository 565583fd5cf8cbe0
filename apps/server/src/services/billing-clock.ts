import type { BillingProviderSync, BillingServiceOptions } from './billing-provider-sync';

/** A receipt that did not go out is tried again for this long. */
const receiptRetryMs = 2 * 86_400_000;
/** Finished claims are kept past any retry of their item, then forgotten. */
const finishedClaimsKeptMs = receiptRetryMs + 86_400_000;
/** ...but not while the first try may still be running. */
const receiptRetryAfterMs = 10 * 60_000;

/** The billing clock: what is due by time rather than by an event. */
export class BillingClock {
  constructor(
    private readonly providerSync: BillingProviderSync,
    private readonly options: BillingServiceOptions,
  ) {}

  /**
   * Everything due by the clock: the provider's own work (the simulated one renews and
   * delivers its events), free months that ended, access that lapsed without an event, receipts
   * that failed, gifts waiting. Runs on a timer; tests call it after moving their clock.
   */
  async runDue(): Promise<void> {
    if (this.providerSync.provider.runDue) {
      await this.providerSync.provider.runDue().catch((error: unknown) => {
        this.options.onError(error, 'running the payment provider');
      });
    }
    // A period that ended: what became of its renewal is read from the provider now, so access
    // follows the dates even before the provider's event arrives (issue 18).
    for (const providerId of await this.providerSync.repository.periodsEnded(
      this.providerSync.provider.name,
      this.providerSync.now(),
    )) {
      await this.providerSync.bySubscription
        .run(providerId, () => this.providerSync.sync(providerId, undefined, undefined))
        .catch((error: unknown) => {
          this.options.onError(error, 'reading a renewal from the provider');
        });
    }
    // A second subscription whose undoing failed when its event came is undone now.
    for (const { providerSubscriptionId } of await this.providerSync.repository.severalRunning(
      this.providerSync.provider.name,
    )) {
      await this.providerSync.bySubscription
        .run(providerSubscriptionId, () =>
          this.providerSync.sync(providerSubscriptionId, undefined, undefined),
        )
        .catch((error: unknown) => {
          this.options.onError(error, 'undoing a second subscription');
        });
    }
    const now = this.providerSync.now();
    for (const userId of await this.providerSync.repository.endLapsedAccess(now)) {
      await this.providerSync.accessChanged(userId);
    }
    const unsent = await this.providerSync.repository.unsentReceipts(
      new Date(now.getTime() - receiptRetryMs),
    );
    for (const payment of unsent) {
      if (payment.paidAt.getTime() > now.getTime() - receiptRetryAfterMs) continue;
      const user = await this.options.users.findById(payment.userId);
      if (user) await this.providerSync.sendReceipt(user, payment.id);
    }
    await this.providerSync.grantPendingGifts();
    await this.options.claims.prune(finishedClaimsKeptMs);
  }
}
