import { useQuery } from '@tanstack/react-query';
import type { BillingOverview, SubscriptionStatus } from '@tradebot/contract';
import { PromocodeForm } from '../../../components/promocode-form';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Notice } from '../../../components/ui/notice';
import { Skeleton } from '../../../components/ui/skeleton';
import { ApiRequestError } from '../../../lib/api-client';
import { billingQueryKey, getBilling, reloadUserConfig } from '../../../lib/billing';
import { formatCents, formatDay } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { routePath } from '../../../lib/route-paths';
import { useBillingAction, useOpenPortal, type BillingAction } from '../../../lib/billing-actions';
import { billingState, type BillingState } from '../../../lib/billing-state';
import styles from './billing-section.module.css';
import { useNumberLocale } from '../../../lib/number-locale';

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
 * period end, the 7-day refund with a confirmation, the card's page (the provider's portal)
 * and how to claim the 30-day guarantee.
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

/** The server's localized refusal (a 429 among them), else the generic one. */
function failureOf(error: unknown, fallback: string): string {
  return error instanceof ApiRequestError && error.message ? error.message : fallback;
}

function Billing({ billing, say }: { billing: BillingOverview; say: BillingMessage }) {
  const { t, language } = useTranslation('billing');
  const numberLocale = useNumberLocale(language);
  const { t: tPlans } = useTranslation('plans');
  const action = useBillingAction();
  const portal = useOpenPortal();
  const day = (iso: string) => formatDay(language, iso);
  const money = (cents: number) => formatCents(numberLocale, cents);
  const subscription = billing.subscription;
  const state = billingState(billing);

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
      onError: (error) => {
        say('error', failureOf(error, t('section.actionFailed')));
      },
    });
  };

  if (!subscription && billing.authorized) {
    // Access given without a subscription (the demo account, or granted by support): nothing is
    // charged and nothing needs choosing.
    return <p className={styles.muted}>{t('section.granted')}</p>;
  }
  if (!subscription) {
    return (
      <>
        <p className={styles.muted}>{t('section.none')}</p>
        <Button to={routePath('Payment')}>{t('section.choosePlan')}</Button>
        {!billing.freeMonthUsed && (
          <>
            <h3 className={styles.subtitle}>{t('promocode.title')}</h3>
            <p className={styles.muted}>{t('promocode.intro')}</p>
            <PromocodeForm
              onApplied={(trialEndsAt) => {
                say(
                  'success',
                  trialEndsAt
                    ? t('promocode.applied', { date: day(trialEndsAt) })
                    : t('promocode.appliedGeneric'),
                );
              }}
            />
          </>
        )}
      </>
    );
  }

  const renewable = state.kind === 'active' || state.kind === 'trialing';
  const cardButton = billing.portal && (
    <Button
      color={state.kind === 'pastDue' ? 'primary' : 'other'}
      loading={portal.isPending}
      title={billing.provider === 'stripe' ? t('section.portalHint') : undefined}
      onClick={() => {
        if (portal.isPending) return;
        portal.mutate(undefined, {
          onError: (error) => {
            say('error', failureOf(error, t('section.actionFailed')));
          },
        });
      }}
    >
      {state.kind === 'pastDue'
        ? t('section.updateCard')
        : billing.provider === 'stripe'
          ? t('section.portal')
          : t('section.changeCard')}
    </Button>
  );
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
        <Facts state={state} />
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

      <StateNotice state={state} />

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
        {(state.kind === 'none' ||
          state.kind === 'freeMonth' ||
          state.kind === 'freeMonthEnded' ||
          state.kind === 'canceled' ||
          state.kind === 'refunded') && (
          <Button to={routePath('Payment')}>{t('section.choosePlan')}</Button>
        )}
        {state.kind === 'endsAtPeriodEnd' && (
          <Button
            color="secondary"
            loading={action.isPending && action.variables === 'resume'}
            onClick={() => {
              run('resume');
            }}
          >
            {t('section.resume')}
          </Button>
        )}
        {renewable && (
          <ConfirmDialog
            trigger={
              <Button color="secondary" loading={action.isPending && action.variables === 'cancel'}>
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
        )}
        {cardButton}
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
      </div>
      {billing.guarantee.eligible && billing.guarantee.until && (
        <div className={styles.guarantee}>
          <p>{t('section.guarantee', { date: day(billing.guarantee.until) })}</p>
          <Button color="secondary" size="sm" to="/contact">
            {t('section.guaranteeClaim')}
          </Button>
        </div>
      )}
    </>
  );
}

/** The dates of the state: next charge, first charge, end, retry. */
function Facts({ state }: { state: BillingState }) {
  const { t, language } = useTranslation('billing');
  const numberLocale = useNumberLocale(language);
  const day = (iso: string) => formatDay(language, iso);
  const money = (cents: number) => formatCents(numberLocale, cents);
  switch (state.kind) {
    case 'active':
      return (
        <>
          <dt>{t('section.nextCharge')}</dt>
          <dd>
            {t('section.nextChargeText', {
              amount: money(state.amountCents),
              date: day(state.nextChargeAt),
            })}
          </dd>
        </>
      );
    case 'trialing':
      return (
        <>
          <dt>{t('section.firstCharge')}</dt>
          <dd>
            {t('section.nextChargeText', {
              amount: money(state.amountCents),
              date: day(state.firstChargeAt),
            })}
          </dd>
        </>
      );
    case 'freeMonth':
    case 'endsAtPeriodEnd':
      return (
        <>
          <dt>{t('section.accessUntil')}</dt>
          <dd>{day(state.endsAt)}</dd>
        </>
      );
    case 'pastDue':
      return (
        <>
          <dt>{t('section.nextAttempt')}</dt>
          <dd>{state.retryAt ? day(state.retryAt) : t('section.noMoreAttempts')}</dd>
        </>
      );
    case 'canceled':
    case 'freeMonthEnded':
      return (
        <>
          <dt>{t('section.endedOn')}</dt>
          <dd>{day(state.endedAt)}</dd>
        </>
      );
    case 'refunded':
      return (
        <>
          <dt>{t('section.refundedOn')}</dt>
          <dd>{day(state.refundedAt)}</dd>
        </>
      );
    case 'none':
      return null;
  }
}

function StateNotice({ state }: { state: BillingState }) {
  const { t, language } = useTranslation('billing');
  const numberLocale = useNumberLocale(language);
  const day = (iso: string) => formatDay(language, iso);
  const money = (cents: number) => formatCents(numberLocale, cents);
  switch (state.kind) {
    case 'freeMonth':
      return (
        <Notice tone="info">{t('section.freeMonthUntil', { date: day(state.endsAt) })}</Notice>
      );
    case 'trialing':
      return (
        <Notice tone="info">
          {t('section.trialing', {
            amount: money(state.amountCents),
            date: day(state.firstChargeAt),
          })}
        </Notice>
      );
    case 'pastDue':
      return (
        <Notice tone="warning" title={t('section.pastDue', { amount: money(state.amountCents) })}>
          {state.retryAt
            ? t('section.pastDueRetry', { date: day(state.retryAt) })
            : t('section.pastDueNoRetry')}
        </Notice>
      );
    case 'endsAtPeriodEnd':
      return (
        <Notice tone="info">{t('section.endsAtPeriodEnd', { date: day(state.endsAt) })}</Notice>
      );
    case 'none':
    case 'active':
    case 'canceled':
    case 'freeMonthEnded':
    case 'refunded':
      return null;
  }
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
