import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Notice } from '../../../components/ui/notice';
import { Skeleton } from '../../../components/ui/skeleton';
import { ApiRequestError } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n';
import { ctraderAuthorize, ctraderStatus } from '../api/ctrader';
import styles from './linking.module.css';

/**
 * "A cTrader broker" (decision 091): the user authorises Tradebot at cTrader ID and comes back to
 * pick an account. Shown disabled, with the reason, when this server has no cTrader application.
 */
export function CTraderCard() {
  const { t } = useTranslation('linking');
  const [leaving, setLeaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const statusQuery = useQuery({ queryKey: ['ctrader', 'status'], queryFn: ctraderStatus });
  const status = statusQuery.data ?? null;
  const loadFailed = statusQuery.isError;

  const connect = async () => {
    setFailure(null);
    setLeaving(true);
    try {
      window.location.assign(await ctraderAuthorize());
    } catch (error) {
      setLeaving(false);
      setFailure(error instanceof ApiRequestError ? error.message : t('ctrader.failed'));
    }
  };

  return (
    <Card title={t('ctrader.title')} titleId="ctrader-title">
      <p>{t('ctrader.description')}</p>
      <p className={styles.note}>{t('ctrader.realMoney')}</p>
      <div className={styles.stack}>
        {(statusQuery.isPending || statusQuery.isRefetching) && !status && (
          <Skeleton height="2.5rem" />
        )}
        {loadFailed && !statusQuery.isRefetching && (
          <Notice
            tone="error"
            action={
              <Button color="secondary" size="sm" onClick={() => void statusQuery.refetch()}>
                {t('ctrader.retry')}
              </Button>
            }
          >
            {t('ctrader.loadFailed')}
          </Notice>
        )}
        {status && !status.configured && <Notice>{t('ctrader.notConfigured')}</Notice>}
        {status?.configured && (
          <p className={styles.note}>{t(`ctrader.environment.${status.environment}`)}</p>
        )}
        {failure && <Notice tone="error">{failure}</Notice>}
        {status && (
          <Button
            label={t('ctrader.connect')}
            loading={leaving}
            disabled={!status.configured}
            onClick={() => void connect()}
            block
          />
        )}
      </div>
    </Card>
  );
}
