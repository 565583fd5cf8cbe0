import { useMutation, useQuery } from '@tanstack/react-query';
import type { CTraderAccount } from '@tradebot/contract';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { AppLink } from '../../../components/ui/app-link';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Notice } from '../../../components/ui/notice';
import { Page } from '../../../components/ui/page';
import { RadioCardGroup } from '../../../components/ui/radio-card-group';
import { Skeleton } from '../../../components/ui/skeleton';
import { ApiRequestError } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n';
import { routePath } from '../../../lib/route-paths';
import { ctraderCallback, ctraderLink, ctraderStatus } from '../api/ctrader';
import { followStep } from '../follow-step';
import styles from '../components/linking.module.css';

/**
 * Where cTrader ID sends the user back (decision 091): the code and state go to the server once,
 * which answers the accounts granted; the user picks one. A reload finds the same accounts
 * through the status call, since the code can be used only once.
 */
export default function CTraderCallbackRoute() {
  const { t } = useTranslation('linking');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const messageOf = (error: unknown) =>
    error instanceof ApiRequestError ? error.message : t('ctrader.failed');
  // The user clicked "Deny" at cTrader ID: nothing to send.
  const denied = params.get('error') !== null;
  // Read once, on arrival: the code leaves the address bar below, and a reload asks the status.
  const [arrival] = useState(() => ({ code: params.get('code'), state: params.get('state') }));

  // The code is single-use, so the exchange is a query keyed by it that is never retried nor
  // refetched: React's development double mount and any re-render share the one request, which
  // a mutation fired from an effect would send twice. Without a code (a reload), the accounts
  // granted earlier come from the status.
  const granted = useQuery({
    queryKey: ['ctrader', 'callback', arrival.code, arrival.state],
    queryFn: async (): Promise<CTraderAccount[] | null> => {
      const { code, state } = arrival;
      if (code && state) return ctraderCallback({ code, state });
      return (await ctraderStatus()).accounts ?? null;
    },
    enabled: !denied,
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
    refetchOnMount: false,
  });
  const accounts = granted.data ?? null;

  // The code is spent by the first call: it leaves the address bar (not a navigation).
  useEffect(() => {
    if (arrival.code) window.history.replaceState(null, '', window.location.pathname);
  }, [arrival.code]);

  // The first account the user can pick is picked until they pick another.
  const [choice, setChoice] = useState<string | null>(null);
  const first = accounts?.find((account) => account.pickable);
  const picked = choice ?? (first ? String(first.ctidTraderAccountId) : '');

  const linkMutation = useMutation({
    mutationFn: async (ctidTraderAccountId: number) => {
      await ctraderLink(ctidTraderAccountId);
      await followStep({ linked: true, login_tradear: true });
      await navigate(routePath('Dashboard'));
    },
  });
  const linking = linkMutation.isPending || linkMutation.isSuccess;
  const failure = granted.isError
    ? messageOf(granted.error)
    : granted.data === null
      ? t('ctrader.noAuthorization')
      : linkMutation.isError
        ? messageOf(linkMutation.error)
        : null;
  const link = () => {
    linkMutation.mutate(Number(picked));
  };

  const pickable = accounts?.filter((account) => account.pickable) ?? [];
  const other = accounts?.filter((account) => !account.pickable) ?? [];
  const describe = (account: CTraderAccount) =>
    [
      account.live ? t('ctrader.live') : t('ctrader.demo'),
      account.currency ?? t('ctrader.unknown'),
      account.leverage === null
        ? t('ctrader.unknown')
        : t('ctrader.leverage', { leverage: account.leverage }),
    ].join(' · ');

  return (
    <Page title={t('ctrader.pickTitle')} intro={t('ctrader.pickIntro')} width="narrow">
      {accounts === null && failure === null && !denied && <Skeleton height="8rem" />}
      {(failure ?? denied) && (
        <Notice
          tone="error"
          action={<AppLink to={routePath('LinkAccount')}>{t('ctrader.back')}</AppLink>}
        >
          {failure ?? t('ctrader.denied')}
        </Notice>
      )}
      {accounts && (
        <Card title={t('ctrader.accountsTitle')} titleId="ctrader-accounts-title">
          {pickable.length === 0 ? (
            <Notice>{t('ctrader.noneUsable')}</Notice>
          ) : (
            <div className={styles.form}>
              <RadioCardGroup
                label={t('ctrader.accountsTitle')}
                value={picked}
                onValueChange={setChoice}
                options={pickable.map((account) => ({
                  value: String(account.ctidTraderAccountId),
                  label: `${account.brokerName} · ${String(account.traderLogin)}`,
                  description: describe(account),
                }))}
                disabled={linking}
              />
              <Button
                label={t('ctrader.link')}
                loading={linking}
                disabled={picked === ''}
                onClick={link}
                block
              />
            </div>
          )}
          {other.length > 0 && (
            <>
              <p className={styles.note}>{t('ctrader.otherEnvironment')}</p>
              <ul>
                {other.map((account) => (
                  <li key={account.ctidTraderAccountId}>
                    {account.brokerName} · {String(account.traderLogin)} · {describe(account)}
                  </li>
                ))}
              </ul>
            </>
          )}
        </Card>
      )}
    </Page>
  );
}
