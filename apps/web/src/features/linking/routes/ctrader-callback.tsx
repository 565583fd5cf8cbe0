import type { CTraderAccount } from '@tradebot/contract';
import { useEffect, useRef, useState } from 'react';
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
  const [accounts, setAccounts] = useState<CTraderAccount[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [picked, setPicked] = useState<string>('');
  const [linking, setLinking] = useState(false);
  const started = useRef(false);

  const messageOf = (error: unknown) =>
    error instanceof ApiRequestError ? error.message : t('ctrader.failed');
  // The user clicked "Deny" at cTrader ID: nothing to send.
  const denied = params.get('error') !== null;

  useEffect(() => {
    if (started.current || denied) return;
    started.current = true;
    const code = params.get('code');
    const state = params.get('state');
    const request =
      code && state
        ? ctraderCallback({ code, state })
        : ctraderStatus().then((status) => status.accounts);
    request.then(
      (list) => {
        if (!list) {
          setFailure(t('ctrader.noAuthorization'));
          return;
        }
        setAccounts(list);
        const first = list.find((account) => account.pickable);
        if (first) setPicked(String(first.ctidTraderAccountId));
      },
      (error: unknown) => {
        setFailure(error instanceof ApiRequestError ? error.message : t('ctrader.failed'));
      },
    );
    // The code is spent by the first call: it leaves the address bar.
    if (code) window.history.replaceState(null, '', window.location.pathname);
  }, [denied, params, t]);

  const link = async () => {
    setFailure(null);
    setLinking(true);
    try {
      await ctraderLink(Number(picked));
      await followStep({ linked: true, login_tradear: true });
      await navigate(routePath('Dashboard'));
    } catch (error) {
      setLinking(false);
      setFailure(messageOf(error));
    }
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
                onValueChange={setPicked}
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
                onClick={() => void link()}
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
