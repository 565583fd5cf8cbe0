import { useMutation, useQuery } from '@tanstack/react-query';
import type { BillingOverview, PlanId } from '@tradebot/contract';
import { useSearchParams } from 'react-router';
import { PlanCards } from '../../../components/plan-cards';
import { AppLink } from '../../../components/ui/app-link';
import { Button } from '../../../components/ui/button';
import { Notice } from '../../../components/ui/notice';
import { Page } from '../../../components/ui/page';
import { Skeleton } from '../../../components/ui/skeleton';
import { ApiRequestError } from '../../../lib/api-client';
import { billingQueryKey, getBilling, startCheckout } from '../../../lib/billing';
import { formatDay } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { routePath } from '../../../lib/route-paths';
import { useAuthStore } from '../../../stores/auth';

/** /payment (spec §2; issue 10): the plans, and the way to the provider's checkout. */
export default function PaymentRoute() {
  const { t } = useTranslation('billing');
  const billing = useQuery({ queryKey: billingQueryKey, queryFn: getBilling });
  return (
    <Page title={t('payment.title')} intro={t('payment.intro')} width="wide">
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
        <Payment billing={billing.data} />
      )}
    </Page>
  );
}

function Payment({ billing }: { billing: BillingOverview }) {
  const { t, language } = useTranslation('billing');
  const { t: tPlans } = useTranslation('plans');
  const [search] = useSearchParams();
  const linked = useAuthStore((state) => state.userConfig?.linked ?? false);
  const checkout = useMutation({
    mutationFn: startCheckout,
    // The provider's page, on our port (simulated) or Stripe's.
    onSuccess: ({ url }) => {
      window.location.assign(url);
    },
  });
  const subscription = billing.subscription;
  const live = subscription?.accessUntil ? subscription : null;
  const next = linked ? routePath('Dashboard') : routePath('LinkAccount');

  if (live && !live.freeMonth) {
    return (
      <Notice
        tone="success"
        title={t('payment.active')}
        action={
          <AppLink className="button button--primary button--md" to={next}>
            {t('payment.continue')}
          </AppLink>
        }
      >
        <p>
          {t('payment.activeText', {
            plan: live.plan ? tPlans(`names.${live.plan}`) : '',
            date: formatDay(language, live.currentPeriodEnd),
          })}
        </p>
      </Notice>
    );
  }

  const freeMonthEnd = live?.freeMonth ? live.currentPeriodEnd : null;
  const pending = checkout.isPending || checkout.isSuccess;
  const choose = (plan: PlanId) => {
    if (!pending) checkout.mutate(plan);
  };
  return (
    <>
      {search.get('checkout') === 'canceled' && (
        <Notice tone="info">{t('payment.canceled')}</Notice>
      )}
      {freeMonthEnd ? (
        <Notice
          tone="info"
          title={t('payment.freeMonthActive', { date: formatDay(language, freeMonthEnd) })}
          action={
            <AppLink className="button button--secondary button--md" to={next}>
              {t('payment.continue')}
            </AppLink>
          }
        >
          <p>{t('payment.freeMonthActiveHint', { date: formatDay(language, freeMonthEnd) })}</p>
        </Notice>
      ) : (
        subscription?.endedAt && (
          <Notice tone="warning">
            {t(subscription.freeMonth ? 'payment.freeMonthEnded' : 'payment.ended', {
              date: formatDay(language, subscription.endedAt),
            })}
          </Notice>
        )
      )}
      {checkout.isError && (
        <Notice tone="error" title={t('payment.checkoutFailed')}>
          {checkout.error instanceof ApiRequestError ? checkout.error.message : null}
        </Notice>
      )}
      {checkout.isSuccess && <Notice tone="info">{t('payment.redirecting')}</Notice>}
      <PlanCards
        action={(plan, name) => (
          <Button
            loading={pending && checkout.variables === plan}
            disabled={pending}
            onClick={() => {
              choose(plan);
            }}
          >
            {t(freeMonthEnd ? 'payment.startWithTrial' : 'payment.choose', { plan: name })}
          </Button>
        )}
      />
      <p className="muted small">{tPlans('honest')}</p>
    </>
  );
}
