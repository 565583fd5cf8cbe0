import type { TradingAccount } from '@tradebot/contract';
import { Card } from '../../../components/ui/card';
import { Meter } from '../../../components/ui/meter';
import { Skeleton } from '../../../components/ui/skeleton';
import { Stat, StatGrid } from '../../../components/ui/stat';
import { formatMoney, formatPercent, formatSignedMoney, toneOf } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import styles from './dashboard.module.css';

/** spec §2: balance, available capital, equity, earnings, and the exposure against the cap. */
export function AccountSummary({
  account,
  loading,
}: {
  account: TradingAccount | null;
  loading: boolean;
}) {
  const { t, language } = useTranslation('dashboard');
  return (
    <Card title={t('account.title')} titleId="account-title">
      {loading ? (
        <div className={styles.stack}>
          <Skeleton height="3.5rem" />
          <Skeleton height="2rem" />
        </div>
      ) : account === null ? (
        <p className={styles.muted}>{t('account.noAccount')}</p>
      ) : (
        <div className={styles.stack}>
          <StatGrid label={t('account.figures')}>
            <Stat
              label={t('account.balance')}
              value={formatMoney(language, account.balance)}
              hint={t('account.balanceHint')}
            />
            <Stat
              label={t('account.freeMargin')}
              value={formatMoney(language, account.freeMargin)}
              hint={t('account.freeMarginHint')}
            />
            <Stat
              label={t('account.equity')}
              value={formatMoney(language, account.equity)}
              hint={t('account.equityHint')}
            />
            <Stat
              label={t('account.earnings')}
              value={formatSignedMoney(language, account.earnings)}
              hint={t('account.earningsHint')}
              tone={toneOf(account.earnings)}
            />
          </StatGrid>
          <div>
            <Meter
              label={t('account.exposure')}
              value={account.exposure}
              limit={account.exposureCap}
              valueText={formatPercent(language, account.exposure)}
              limitText={formatPercent(language, account.exposureCap)}
            />
            <p className={styles.hint}>
              {t('account.exposureHint', { cap: formatPercent(language, account.exposureCap) })}
            </p>
          </div>
        </div>
      )}
    </Card>
  );
}
