import { useMutation, useQuery } from '@tanstack/react-query';
import { builtInPlatform, plans, type BillingOverview, type PlanId } from '@tradebot/contract';
import { useEffect, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { PlanCards } from '../../../components/plan-cards';
import { PromocodeForm } from '../../../components/promocode-form';
import { Card } from '../../../components/ui/card';
import { Button } from '../../../components/ui/button';
import { FactList } from '../../../components/ui/fact-list';
import { Notice } from '../../../components/ui/notice';
import { Page } from '../../../components/ui/page';
import { Skeleton } from '../../../components/ui/skeleton';
import { ApiRequestError } from '../../../lib/api-client';
import {
  billingQueryKey,
  getBilling,
  startCheckout,
  userConfigReloadQuery,
} from '../../../lib/billing';
import { useOpenPortal } from '../../../lib/billing-actions';
import { billingState, offersPlans, type BillingState } from '../../../lib/billing-state';
import { formatCents, formatDay } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { chosenPlan, isWelcome } from '../../../lib/onboarding';
import { routePath } from '../../../lib/route-paths';
import { useAuthStore } from '../../../stores/auth';

import { CancelRenewal } from '../components/cancel-renewal';
import { Waiting } from '../components/waiting';

import styles from './payment.module.css';
import { useNumberLocale } from '../../../lib/number-locale';

/** After the card page, how often /payment asks whether the retried charge was confirmed, and for how long. */
const pollMs = 1000;
const patienceMs = 60_000;

/** /payment (spec §2; issue 10): the subscription's state, the plans, and the way to pay. */
export default function PaymentRoute() {
  const { t } = useTranslation('billing');
  const [search] = useSearchParams();
  // Right after the e-mail was confirmed: a welcome, not the guard's "must pay" (decision 086).
  const welcome = isWelcome(useLocation().state);
  // Back from the provider's card page: the charge it retried is confirmed by the webhook.
  const cardUpdated = search.get('card') === 'updated';
  const [patient, setPatient] = useState(true);
  useEffect(() => {
    if (!cardUpdated) return;
    const timer = setTimeout(() => {
      setPatient(false);
    }, patienceMs);
    return () => {
      clearTimeout(timer);
    };
  }, [cardUpdated]);
  const waitingForCard = cardUpdated && patient;
  const billing = useQuery({
    queryKey: billingQueryKey,
    queryFn: getBilling,
    refetchInterval: (query) =>
      waitingForCard && query.state.data?.subscription?.status === 'past_due' ? pollMs : false,
  });
  // The server's `authorized` changed (a charge confirmed): the guards must know it.
  const authorized = billing.data?.authorized;
  const known = useAuthStore((state) => state.userConfig?.authorized);
  useQuery(userConfigReloadQuery(authorized, known));
  return (
    <Page
      title={t(welcome ? 'payment.welcomeTitle' : 'payment.title')}
      // "Choose a plan" only where plans are offered (not to a subscriber).
      intro={
        billing.data && !offersPlans(billingState(billing.data))
          ? undefined
          : t(welcome ? 'payment.welcomeIntro' : 'payment.intro')
      }
      width="wide"
    >
      {billing.isPending ? (
        <>
          <Skeleton height="3rem" />
          <Skeleton height="20rem" />
        </>
      ) : billing.isError ? (
        <Notice
          tone="error"
          title={t('payment.loadFailed')}
          action={
            <Button color="secondary" size="sm" onClick={() => void billing.refetch()}>
              {t('payment.retry')}
            </Button>
          }
        />
      ) : (
        <Payment billing={billing.data} waitingForCard={waitingForCard} />
      )}
    </Page>
  );
}

function Payment({
  billing,
  waitingForCard,
}: {
  billing: BillingOverview;
  waitingForCard: boolean;
}) {
  const { t } = useTranslation('billing');
  const [search] = useSearchParams();
  const checkout = useMutation({
    mutationFn: startCheckout,
    // The provider's page, on our port (simulated) or Stripe's.
    onSuccess: ({ url }) => {
      window.location.assign(url);
    },
  });
  const state = billingState(billing);
  const plansOffered = offersPlans(state);
  // Read once: the plan chosen on the home page, until a subscription makes it moot.
  const [chosen] = useState(() => (plansOffered ? chosenPlan.get() : null));
  useEffect(() => {
    if (!plansOffered) chosenPlan.clear();
  }, [plansOffered]);

  if (!plansOffered) return <Subscribed state={state} waitingForCard={waitingForCard} />;

  const freeMonthEnd = state.kind === 'freeMonth' ? state.endsAt : null;
  const pending = checkout.isPending || checkout.isSuccess;
  return (
    <>
      {search.get('checkout') === 'canceled' && (
        <Notice tone="info">{t('payment.canceled')}</Notice>
      )}
      <Ended state={state} />
      {checkout.isError && (
        <Notice tone="error" title={t('payment.checkoutFailed')}>
          {checkout.error instanceof ApiRequestError ? checkout.error.message : null}
        </Notice>
      )}
      {checkout.isSuccess && <Notice tone="info">{t('payment.redirecting')}</Notice>}
      <PlatformCard />
      <PlanCards
        chosen={chosen}
        action={(plan: PlanId, name) => (
          <Button
            color={chosen === null || chosen === plan ? 'primary' : 'secondary'}
            loading={pending && checkout.variables === plan}
            disabled={pending}
            onClick={() => {
              if (!pending) checkout.mutate(plan);
            }}
          >
            {t(freeMonthEnd ? 'payment.startWithTrial' : 'payment.choose', { plan: name })}
          </Button>
        )}
      />
      <PricesNote account={billing.account} />
      <GiftRule account={billing.account} />
      <PlansNote />
      {state.kind === 'none' && !billing.freeMonthUsed && <PromocodeCard />}
    </>
  );
}

/**
 * Before paying: where the robot will trade and whether the money is real (issue 23). Today
 * every account links the built-in platform, so this says what the link page says, in its own
 * words (the `linking` catalogue) and with its starting balance (decision 086).
 */
function PlatformCard() {
  const { t } = useTranslation('billing');
  const { t: tLinking, language } = useTranslation('linking');
  const numberLocale = useNumberLocale(language);
  return (
    <Card title={t('payment.platformTitle')} titleId="platform-title">
      <p>{tLinking('platform.description')}</p>
      <FactList
        facts={[
          { term: tLinking('platform.name'), value: tLinking('platform.title') },
          {
            term: tLinking('platform.startingBalance'),
            value: formatCents(numberLocale, builtInPlatform.startingBalanceCents),
          },
        ]}
      />
      <p className={styles.note}>{tLinking('platform.simulated')}</p>
    </Card>
  );
}

/** A code sent by e-mail (the free month) instead of a card: offered before any subscription. */
function PromocodeCard() {
  const { t } = useTranslation('billing');
  return (
    <Card title={t('promocode.title')} titleId="promocode-title">
      <p className={styles.note}>{t('promocode.intro')}</p>
      <PromocodeForm />
    </Card>
  );
}

/**
 * The prices' currency beside the linked account's (issue 39): the plans are priced in USD, the
 * built-in platform's account is in USD, and a cTrader account is in the currency its broker
 * said (BRL, EUR...), which the dashboard shows its figures in (decision 097).
 */
function PricesNote({ account }: { account: BillingOverview['account'] }) {
  const { t } = useTranslation('billing');
  let text: string;
  if (account === null) text = t('payment.pricesUnlinked');
  else if (account.kind === 'simulated') text = t('payment.pricesSimulated');
  else if (account.currency === null) text = t('payment.pricesBrokerUnknown');
  else text = t('payment.pricesBroker', { currency: account.currency });
  return <p className={styles.note}>{text}</p>;
}

/**
 * Before the yearly plan is bought: its gift is simulated money on the built-in platform only
 * (decision 157), never a deposit at a broker; said again to a user whose linked account is one.
 */
function GiftRule({ account }: { account: BillingOverview['account'] }) {
  const { t, language } = useTranslation('billing');
  const numberLocale = useNumberLocale(language);
  const amount = formatCents(numberLocale, plans.yearly.brokerGiftCents);
  return (
    <p className={styles.note}>
      {t('payment.giftRule', { amount })}
      {account !== null && account.kind !== 'simulated' && <> {t('payment.giftRuleBroker')}</>}
    </p>
  );
}

function PlansNote() {
  const { t } = useTranslation('plans');
  return <p className={styles.note}>{t('honest')}</p>;
}

/** Above the plans: the free month running, or what ended. */
function Ended({ state }: { state: BillingState }) {
  const { t, language } = useTranslation('billing');
  const linked = useAuthStore((store) => store.userConfig?.linked ?? false);
  const day = (iso: string) => formatDay(language, iso);
  switch (state.kind) {
    case 'freeMonth':
      return (
        <Notice
          tone="info"
          title={t('payment.freeMonthActive', { date: day(state.endsAt) })}
          action={
            <Button color="secondary" to={routePath(linked ? 'Dashboard' : 'LinkAccount')}>
              {t('payment.continue')}
            </Button>
          }
        >
          <p>{t('payment.freeMonthActiveHint', { date: day(state.endsAt) })}</p>
        </Notice>
      );
    case 'freeMonthEnded':
      return (
        <Notice tone="warning">{t('payment.freeMonthEnded', { date: day(state.endedAt) })}</Notice>
      );
    case 'canceled':
      return <Notice tone="warning">{t('payment.ended', { date: day(state.endedAt) })}</Notice>;
    case 'refunded':
      return (
        <Notice tone="warning">{t('payment.refunded', { date: day(state.refundedAt) })}</Notice>
      );
    case 'none':
    case 'active':
    case 'trialing':
    case 'endsAtPeriodEnd':
    case 'pastDue':
      return null;
  }
}

/** A subscription running (or past due): no plans, its state and the next step. */
function Subscribed({ state, waitingForCard }: { state: BillingState; waitingForCard: boolean }) {
  const { t, language } = useTranslation('billing');
  const numberLocale = useNumberLocale(language);
  const { t: tPlans } = useTranslation('plans');
  const linked = useAuthStore((store) => store.userConfig?.linked ?? false);
  const portal = useOpenPortal();
  const day = (iso: string) => formatDay(language, iso);
  const money = (cents: number) => formatCents(numberLocale, cents);
  const next = (
    <Button to={routePath(linked ? 'Dashboard' : 'LinkAccount')}>{t('payment.continue')}</Button>
  );
  switch (state.kind) {
    case 'trialing':
      return (
        <Notice
          tone="success"
          title={t('payment.trialing')}
          action={
            <div className={styles.actions}>
              {next}
              <CancelRenewal periodEnd={state.firstChargeAt} />
            </div>
          }
        >
          <p>
            {t('payment.trialingText', {
              plan: tPlans(`names.${state.plan}`),
              amount: money(state.amountCents),
              date: day(state.firstChargeAt),
            })}
          </p>
        </Notice>
      );
    case 'active':
      return (
        <Notice
          tone="success"
          title={t('payment.active')}
          action={
            <div className={styles.actions}>
              {next}
              <CancelRenewal periodEnd={state.nextChargeAt} />
            </div>
          }
        >
          <p>
            {t('payment.activeText', {
              plan: tPlans(`names.${state.plan}`),
              amount: money(state.amountCents),
              date: day(state.nextChargeAt),
            })}
          </p>
        </Notice>
      );
    case 'endsAtPeriodEnd':
      return (
        <Notice tone="info" title={t('payment.endsAtPeriodEnd')} action={next}>
          <p>
            {t('payment.endsAtPeriodEndText', {
              plan: tPlans(`names.${state.plan}`),
              date: day(state.endsAt),
            })}
          </p>
        </Notice>
      );
    case 'pastDue':
      if (waitingForCard) {
        return <Waiting>{t('payment.cardConfirming')}</Waiting>;
      }
      return (
        <Notice
          tone="warning"
          title={t('payment.pastDue')}
          action={
            state.canUpdateCard && (
              <Button
                loading={portal.isPending || portal.isSuccess}
                onClick={() => {
                  if (!portal.isPending) portal.mutate();
                }}
              >
                {t('payment.updateCard')}
              </Button>
            )
          }
        >
          <p>
            {t('payment.pastDueText', {
              plan: tPlans(`names.${state.plan}`),
              amount: money(state.amountCents),
            })}
          </p>
          <p>
            {state.retryAt
              ? t('payment.pastDueRetry', { date: day(state.retryAt) })
              : t('payment.pastDueNoRetry')}
          </p>
          {portal.isError && (
            <p role="alert">
              {portal.error instanceof ApiRequestError
                ? portal.error.message
                : t('payment.cardPageFailed')}
            </p>
          )}
        </Notice>
      );
    case 'none':
    case 'freeMonth':
    case 'freeMonthEnded':
    case 'canceled':
    case 'refunded':
      return null;
  }
}
