import { useQuery } from '@tanstack/react-query';
import type { BillingOverview, SubscriptionStatus } from '@tradebot/contract';
import { AppLink } from '../../../components/ui/app-link';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Notice } from '../../../components/ui/notice';
import { Skeleton } from '../../../components/ui/skeleton';
import { billingQueryKey, getBilling, reloadUserConfig } from '../../../lib/billing';
import { formatCents, formatDay } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { routePath } from '../../../lib/route-paths';
import { useBillingAction, useOpenPortal, type BillingAction } from '../api/billing-actions';
import styles from './billing-section.module.css';

const statusTone: Record<SubscriptionStatus, BadgeTone> = {
  trialing: 'info',
  active: 'positive',
  past_due: 'warning',
  canceled: 'neutral',
  refunded: 'neutral',
};

export type BillingMessage = (tone: 'success' | 'error', title: string) => void;

/**
 * The profile's billing section (issue 10): plan, status, next charge, payments, cancel at
 * period end, the 7-day refund with a confirmation, and the provider's portal (Stripe).
 */
export function BillingSection({ say }: { say: BillingMessage }) {
  const { t } = useTranslation('billing');
  const billing = useQuery({ queryKey: billingQueryKey, queryFn: getBilling });
  return (
    <Card title={t('section.title')} titleId="billing-title">
      {billing.isPending ? (
        <Skeleton height="10rem" />
      ) : billing.isError ? (
        <Notice
          tone="error"
          title={t('section.loadFailed')}
          action={
            <Button color="secondary" size="sm" onClick={() => void billing.refetch()}>
              {t('section.retry')}
            </Button>
          }
        />
      ) : (
        <Billing billing={billing.data} say={say} />
      )}
    </Card>
  );
}

function Billing({ billing, say }: { billing: BillingOverview; say: BillingMessage }) {
  const { t, language } = useTranslation('billing');
  const { t: tPlans } = useTranslation('plans');
  const action = useBillingAction();
  const portal = useOpenPortal();
  const day = (iso: string) => formatDay(language, iso);
  const money = (cents: number) => formatCents(language, cents);
  const subscription = billing.subscription;

  const run = (kind: BillingAction) => {
    if (action.isPending) return;
    action.mutate(kind, {
      onSuccess: (next) => {
        const end = next.subscription?.accessUntil ?? next.subscription?.currentPeriodEnd ?? '';
        if (kind === 'refund') {
          say('success', t('section.refundedDone'));
          // Access ended: the guards must know before the next navigation.
          void reloadUserConfig().catch(() => undefined);
        } else if (kind === 'cancel') {
          say('success', t('section.canceledDone', { date: day(end) }));
        } else {
          say('success', t('section.resumedDone'));
        }
      },
      onError: () => {
        say('error', t('section.actionFailed'));
      },
    });
  };

  if (!subscription) {
    return (
      <>
        <p className={styles.muted}>{t('section.none')}</p>
        <AppLink className="button button--primary button--md" to={routePath('Payment')}>
          {t('section.choosePlan')}
        </AppLink>
      </>
    );
  }

  const live = subscription.accessUntil !== null;
  const renewable = live && !subscription.freeMonth && subscription.status !== 'past_due';
  return (
    <>
      <dl className={styles.facts}>
        <dt>{t('section.plan')}</dt>
        <dd>
          {subscription.plan ? tPlans(`names.${subscription.plan}`) : t('section.freeMonthName')}{' '}
          <Badge tone={statusTone[subscription.status]}>
            {t(`section.status.${subscription.status}`)}
          </Badge>
        </dd>
        {live && (
          <>
            <dt>{t('section.nextCharge')}</dt>
            <dd>
              {subscription.nextChargeAt && subscription.nextChargeCents !== null
                ? t('section.nextChargeText', {
                    amount: money(subscription.nextChargeCents),
                    date: day(subscription.nextChargeAt),
                  })
                : t('section.noNextCharge')}
            </dd>
            {!subscription.nextChargeAt && subscription.status !== 'past_due' && (
              <>
                <dt>{t('section.accessUntil')}</dt>
                <dd>{day(subscription.currentPeriodEnd)}</dd>
              </>
            )}
          </>
        )}
        {billing.gift && (
          <>
            <dt>{t('section.gift')}</dt>
            <dd>
              {t(`section.giftStatus.${billing.gift.status}`, {
                amount: money(billing.gift.cents),
              })}
            </dd>
          </>
        )}
      </dl>

      {subscription.freeMonth && live && (
        <Notice
          tone="info"
          action={
            <AppLink className="button button--primary button--sm" to={routePath('Payment')}>
              {t('section.choosePlan')}
            </AppLink>
          }
        >
          {t('section.freeMonthUntil', { date: day(subscription.currentPeriodEnd) })}
        </Notice>
      )}
      {subscription.status === 'past_due' && subscription.accessUntil && (
        <Notice tone="warning">
          {t('section.pastDue', { date: day(subscription.accessUntil) })}
        </Notice>
      )}
      {renewable && subscription.cancelAtPeriodEnd && (
        <Notice tone="info">
          {t('section.endsAtPeriodEnd', { date: day(subscription.currentPeriodEnd) })}
        </Notice>
      )}
      {!live && (
        <AppLink className="button button--primary button--md" to={routePath('Payment')}>
          {t('section.choosePlan')}
        </AppLink>
      )}

      <h3 className={styles.subtitle}>{t('section.history')}</h3>
      {billing.payments.length === 0 ? (
        <p className={styles.muted}>{t('section.noPayments')}</p>
      ) : (
        <ul className={styles.payments}>
          {billing.payments.map((payment) => (
            <li key={payment.id} className={styles.payment}>
              <span>
                {day(payment.paidAt)} · {tPlans(`names.${payment.plan}`)}
                {payment.cardLast4 && (
                  <span className={styles.muted}>
                    {' '}
                    ·{' '}
                    {t('section.card', {
                      brand: capitalize(payment.cardBrand ?? ''),
                      last4: payment.cardLast4,
                    })}
                  </span>
                )}
              </span>
              <span>
                {money(payment.amountCents)}{' '}
                <Badge tone={payment.status === 'paid' ? 'positive' : 'neutral'}>
                  {t(`section.paymentStatus.${payment.status}`)}
                </Badge>
              </span>
            </li>
          ))}
        </ul>
      )}

      {billing.refund.eligible && billing.refund.until && billing.refund.amountCents !== null && (
        <p className={styles.notes}>
          {t('section.refundText', {
            amount: money(billing.refund.amountCents),
            date: day(billing.refund.until),
          })}
        </p>
      )}
      <div className={styles.actions}>
        {renewable &&
          (subscription.cancelAtPeriodEnd ? (
            <Button
              color="secondary"
              loading={action.isPending && action.variables === 'resume'}
              onClick={() => {
                run('resume');
              }}
            >
              {t('section.resume')}
            </Button>
          ) : (
            <ConfirmDialog
              trigger={
                <Button
                  color="secondary"
                  loading={action.isPending && action.variables === 'cancel'}
                >
                  {t('section.cancel')}
                </Button>
              }
              title={t('section.cancelTitle')}
              description={t('section.cancelText', { date: day(subscription.currentPeriodEnd) })}
              confirmLabel={t('section.cancelConfirm')}
              cancelLabel={t('section.keep')}
              onConfirm={() => {
                run('cancel');
              }}
            />
          ))}
        {billing.refund.eligible && billing.refund.amountCents !== null && (
          <ConfirmDialog
            tone="danger"
            trigger={
              <Button color="danger" loading={action.isPending && action.variables === 'refund'}>
                {t('section.refund')}
              </Button>
            }
            title={t('section.refundTitle')}
            description={t('section.refundConfirmText', {
              amount: money(billing.refund.amountCents),
            })}
            confirmLabel={t('section.refundConfirm')}
            cancelLabel={t('section.keep')}
            onConfirm={() => {
              run('refund');
            }}
          />
        )}
        {billing.portal && (
          <Button
            color="other"
            loading={portal.isPending}
            title={t('section.portalHint')}
            onClick={() => {
              portal.mutate(undefined, {
                onError: () => {
                  say('error', t('section.actionFailed'));
                },
              });
            }}
          >
            {t('section.portal')}
          </Button>
        )}
      </div>
      {billing.payments.length > 0 && <p className={styles.notes}>{t('section.guarantee')}</p>}
    </>
  );
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
