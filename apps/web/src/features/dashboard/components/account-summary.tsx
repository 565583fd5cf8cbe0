import type { AccountKind, PriceSource, TradingAccount } from '@tradebot/contract';
import type { ReactNode } from 'react';
import { Card } from '../../../components/ui/card';
import { Meter } from '../../../components/ui/meter';
import { Skeleton } from '../../../components/ui/skeleton';
import { Stat, StatGrid } from '../../../components/ui/stat';
import { formatMoney, formatPercent, formatSignedMoney, toneOf } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { useAccountCurrency } from '../account-currency';
import styles from './dashboard.module.css';
import { PricesLabel } from './prices-label';
import { useNumberLocale } from '../../../lib/number-locale';

/** spec §2: balance, available capital, equity, earnings, and the exposure against the cap. */
export function AccountSummary({
  account,
  accountKind,
  prices,
  loading,
  footer,
}: {
  account: TradingAccount | null;
  /** Where the account lives: said on every view, simulated until a real account is linked. */
  accountKind: AccountKind | null;
  /** Which market its prices come from (decision 140); null while unknown. */
  prices?: PriceSource | null;
  loading: boolean;
  /** Said under the figures (a broker account's instruments the robot does not trade). */
  footer?: ReactNode;
}) {
  const { t, language } = useTranslation('dashboard');
  const numberLocale = useNumberLocale(language);
  const currency = useAccountCurrency();
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
          {accountKind ? (
            <p className={styles.muted} data-testid="account-kind">
              {t(`account.kind.${accountKind}`)}
            </p>
          ) : null}
          {prices ? <PricesLabel prices={prices} /> : null}
          <StatGrid label={t('account.figures')}>
            <Stat
              label={t('account.balance')}
              value={formatMoney(numberLocale, account.balance, currency)}
              hint={t('account.balanceHint')}
            />
            <Stat
              label={t('account.freeMargin')}
              value={formatMoney(numberLocale, account.freeMargin, currency)}
              hint={t('account.freeMarginHint')}
            />
            <Stat
              label={t('account.equity')}
              value={formatMoney(numberLocale, account.equity, currency)}
              hint={t('account.equityHint')}
            />
            <Stat
              label={t('account.earnings')}
              value={formatSignedMoney(numberLocale, account.earnings, currency)}
              hint={t('account.earningsHint')}
              tone={toneOf(account.earnings)}
            />
          </StatGrid>
          <div>
            <Meter
              label={t('account.exposure')}
              value={account.exposure}
              limit={account.exposureCap}
              valueText={formatPercent(numberLocale, account.exposure)}
              limitText={formatPercent(numberLocale, account.exposureCap)}
            />
            <p className={styles.hint}>
              {t('account.exposureHint', { cap: formatPercent(numberLocale, account.exposureCap) })}
            </p>
          </div>
        </div>
      )}
      {footer}
    </Card>
  );
}
