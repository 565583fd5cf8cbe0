import { plans, type PlanId } from '@tradebot/contract';
import { and, asc, count, eq, isNotNull, lte } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { simPayCharges, simPayCheckouts, simPaySubscriptions } from '../../db/schema';
import type { Clock } from '../../repositories/clock';
import { newSimulatedId, type SimulatedWebhookOutbox, type Tx } from './webhook-outbox';

const dayMs = 24 * 3_600_000;
/** A declined renewal is retried a day later, twice; the third decline cancels. */
const renewalAttempts = 3;
const renewalRetryMs = dayMs;

/** A calendar month or year after `from`, in UTC (Jan 31 + 1 month = Mar 3, as Date does). */
export function addInterval(from: number, plan: PlanId): number {
  const date = new Date(from);
  if (plans[plan].interval === 'year') date.setUTCFullYear(date.getUTCFullYear() + 1);
  else date.setUTCMonth(date.getUTCMonth() + 1);
  return date.getTime();
}

/** A charge in the provider's books (a first payment, a renewal, a past-due charge paid). */
export async function insertCharge(
  tx: Tx,
  charge: {
    subscriptionId: string;
    amountCents: number;
    currency: string;
    at: Date;
    periodStart: Date;
    periodEnd: Date;
    cardBrand: string;
    cardLast4: string;
  },
): Promise<string> {
  const id = newSimulatedId('ch');
  await tx.insert(simPayCharges).values({
    id,
    subscriptionId: charge.subscriptionId,
    amountCents: charge.amountCents,
    currency: charge.currency,
    createdAt: charge.at,
    periodStart: charge.periodStart,
    periodEnd: charge.periodEnd,
    cardBrand: charge.cardBrand,
    cardLast4: charge.cardLast4,
  });
  return id;
}

export interface SimulatedRenewalsOptions {
  db: Db;
  clock: Clock;
  outbox: SimulatedWebhookOutbox;
  onError: (error: unknown, what: string) => void;
}

/**
 * The simulated provider's billing clock: renewals, retries of declined renewals,
 * cancellations at the period's end and expired checkouts. Each renewal is charged in a
 * transaction that locks its subscription and checks it is still due, so two processes
 * renew it once (decision 078).
 */
export class SimulatedRenewals {
  private readonly outbox: SimulatedWebhookOutbox;

  constructor(private readonly options: SimulatedRenewalsOptions) {
    this.outbox = options.outbox;
  }

  /**
   * Renewals, retries of declined renewals, cancellations at the period's end and expired
   * checkouts, everything due by the clock (each subscription catches up period by period);
   * then the events due are delivered.
   */
  async runDue(): Promise<void> {
    const now = this.options.clock.now();
    const due = await this.options.db
      .select({ id: simPaySubscriptions.id })
      .from(simPaySubscriptions)
      .where(
        and(
          isNotNull(simPaySubscriptions.nextChargeAt),
          lte(simPaySubscriptions.nextChargeAt, now),
        ),
      )
      .orderBy(asc(simPaySubscriptions.nextChargeAt));
    let recorded = false;
    for (const { id } of due) {
      try {
        recorded = (await this.renew(id, now)) || recorded;
      } catch (error) {
        this.options.onError(error, `renewing simulated subscription ${id}`);
      }
    }
    await this.options.db
      .update(simPayCheckouts)
      .set({ status: 'expired' })
      .where(and(eq(simPayCheckouts.status, 'open'), lte(simPayCheckouts.expiresAt, now)));
    if (recorded) this.outbox.kick();
    await this.outbox.deliverDue();
  }

  private async renew(id: string, now: Date): Promise<boolean> {
    return this.options.db.transaction(async (tx) => {
      let recorded = false;
      for (let step = 0; step < 1000; step++) {
        const [sub] = await tx
          .select()
          .from(simPaySubscriptions)
          .where(eq(simPaySubscriptions.id, id))
          .for('update');
        if (!sub?.nextChargeAt || sub.nextChargeAt > now || sub.status === 'canceled') break;
        const at = sub.nextChargeAt;
        const event = { id, subscription: id };
        if (sub.cancelAtPeriodEnd) {
          await tx
            .update(simPaySubscriptions)
            .set({ status: 'canceled', canceledAt: at, nextChargeAt: null })
            .where(eq(simPaySubscriptions.id, id));
          await this.outbox.record(tx, 'customer.subscription.deleted', event);
          recorded = true;
          break;
        }
        // A renewal opens the next period, paid or not (as Stripe does); a retry stays in it.
        const retry = sub.status === 'past_due';
        const periodStart = retry ? sub.currentPeriodStart : sub.currentPeriodEnd;
        const periodEnd = retry
          ? sub.currentPeriodEnd
          : new Date(addInterval(sub.currentPeriodEnd.getTime(), sub.plan));
        const [charged] = await tx
          .select({ charges: count() })
          .from(simPayCharges)
          .where(eq(simPayCharges.subscriptionId, id));
        const declined = sub.declinesRenewals && (charged?.charges ?? 0) > 0;
        if (!declined) {
          const chargeId = await insertCharge(tx, {
            subscriptionId: id,
            amountCents: sub.amountCents,
            currency: sub.currency,
            at,
            periodStart,
            periodEnd,
            cardBrand: sub.cardBrand,
            cardLast4: sub.cardLast4,
          });
          await tx
            .update(simPaySubscriptions)
            .set({
              status: 'active',
              currentPeriodStart: periodStart,
              currentPeriodEnd: periodEnd,
              nextChargeAt: periodEnd,
              failedAttempts: 0,
            })
            .where(eq(simPaySubscriptions.id, id));
          await this.outbox.record(tx, 'invoice.paid', { id: chargeId, subscription: id });
          await this.outbox.record(tx, 'customer.subscription.updated', event);
        } else {
          const failedAttempts = sub.failedAttempts + 1;
          const givesUp = failedAttempts >= renewalAttempts;
          await tx
            .update(simPaySubscriptions)
            .set({
              status: givesUp ? 'canceled' : 'past_due',
              canceledAt: givesUp ? at : null,
              currentPeriodStart: periodStart,
              currentPeriodEnd: periodEnd,
              nextChargeAt: givesUp ? null : new Date(at.getTime() + renewalRetryMs),
              failedAttempts,
            })
            .where(eq(simPaySubscriptions.id, id));
          await this.outbox.record(tx, 'invoice.payment_failed', event);
          await this.outbox.record(
            tx,
            givesUp ? 'customer.subscription.deleted' : 'customer.subscription.updated',
            event,
          );
        }
        recorded = true;
      }
      return recorded;
    });
  }
}
