import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Notice } from '../../../components/ui/notice';
import { Page } from '../../../components/ui/page';
import { userConfigReloadQuery } from '../../../lib/billing';
import { useTranslation } from '../../../lib/i18n';
import { routePath } from '../../../lib/route-paths';
import { useAuthStore } from '../../../stores/auth';
import { getCheckoutStatus } from '../api/get-checkout-status';
import { Waiting as WaitingNotice } from '../components/waiting';

/** How often the page asks, and for how long before it says the wait is unusual. */
const pollMs = 1000;
const patienceMs = 60_000;

/**
 * /payment/return: where the provider sends the browser back. The redirect proves nothing;
 * this page waits, polling, until the provider's signed event has been applied on the server,
 * then refreshes the session's config and moves on (to link the account).
 */
export default function PaymentReturnRoute() {
  const { t } = useTranslation('billing');
  const [search] = useSearchParams();
  const sessionId = search.get('session_id');
  return (
    <Page title={t('return.title')} width="narrow">
      {sessionId ? (
        <Waiting sessionId={sessionId} />
      ) : (
        <Navigate to={routePath('Payment')} replace />
      )}
    </Page>
  );
}

function Waiting({ sessionId }: { sessionId: string }) {
  const { t } = useTranslation('billing');
  const navigate = useNavigate();
  const [startedAt, setStartedAt] = useState(() => Date.now());
  const [now, setNow] = useState(() => Date.now());
  const patient = now - startedAt < patienceMs;
  const status = useQuery({
    queryKey: ['billing', 'checkout', sessionId],
    queryFn: () => getCheckoutStatus(sessionId),
    refetchInterval: (query) => (query.state.data?.state === 'pending' && patient ? pollMs : false),
    retry: 3,
  });
  const state = status.data?.state;

  useEffect(() => {
    if (state !== 'pending') return;
    const timer = setInterval(() => {
      setNow(Date.now());
    }, pollMs);
    return () => {
      clearInterval(timer);
    };
  }, [state]);

  // Paid: the session's config is read again (the guards must see `authorized`), then on to
  // the next step, whether that read succeeded or not.
  const reload = useQuery({
    ...userConfigReloadQuery(true, false),
    enabled: state === 'paid',
  });
  const reloaded = reload.isFetchedAfterMount && !reload.isFetching;
  useEffect(() => {
    if (!reloaded) return;
    const linked = useAuthStore.getState().userConfig?.linked ?? false;
    void navigate(routePath(linked ? 'Dashboard' : 'LinkAccount'), { replace: true });
  }, [reloaded, navigate]);

  if (status.isError) {
    return (
      <Notice
        tone="error"
        title={t('return.failed')}
        action={
          <Button color="secondary" size="sm" onClick={() => void status.refetch()}>
            {t('return.keepWaiting')}
          </Button>
        }
      />
    );
  }
  if (state === 'paid') return <Notice tone="success">{t('return.paid')}</Notice>;
  if (state === 'expired') {
    return (
      <Notice
        tone="warning"
        action={<Button to={routePath('Payment')}>{t('return.backToPayment')}</Button>}
      >
        {t('return.expired')}
      </Notice>
    );
  }
  if (!patient) {
    return (
      <Notice
        tone="warning"
        action={
          <Button
            color="secondary"
            size="sm"
            onClick={() => {
              setStartedAt(Date.now());
              setNow(Date.now());
              void status.refetch();
            }}
          >
            {t('return.keepWaiting')}
          </Button>
        }
      >
        {t('return.slow')}
      </Notice>
    );
  }
  return <WaitingNotice>{t('return.waiting')}</WaitingNotice>;
}
