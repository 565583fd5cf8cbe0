import type { EquityPoint } from '@tradebot/contract';
import { lazy, Suspense } from 'react';
import { Notice } from '../../../components/ui/notice';
import { Skeleton } from '../../../components/ui/skeleton';
import { Button } from '../../../components/ui/button';
import { formatMoney } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { useAccountCurrency } from '../account-currency';
import styles from './dashboard.module.css';
import { useNumberLocale } from '../../../lib/number-locale';

// lightweight-charts is the heaviest piece of the screen: fetched only when a curve is drawn.
const EquityChart = lazy(() => import('../../../components/equity-chart/equity-chart'));

/** The equity over the period (TradingView lightweight-charts), with its figures in words. */
export function EquityCurve({
  points,
  loading,
  failed,
  onRetry,
}: {
  points: readonly EquityPoint[] | undefined;
  loading: boolean;
  failed: boolean;
  onRetry: () => void;
}) {
  const { t, language } = useTranslation('dashboard');
  const numberLocale = useNumberLocale(language);
  const currency = useAccountCurrency();
  if (loading) return <Skeleton height="12rem" />;
  if (failed) {
    return (
      <Notice
        tone="error"
        title={t('chart.error')}
        action={
          <Button size="sm" color="other" onClick={onRetry}>
            {t('retry')}
          </Button>
        }
      />
    );
  }
  const first = points?.[0];
  const last = points?.at(-1);
  if (!points || points.length < 2 || !first || !last) {
    return <p className={styles.muted}>{t('chart.empty')}</p>;
  }
  return (
    <figure className={styles.chart} aria-label={t('chart.label')}>
      <Suspense fallback={<Skeleton height="12rem" />}>
        <EquityChart points={points} locale={numberLocale} currency={currency} />
      </Suspense>
      <figcaption className={styles.hint}>
        {t('chart.summary', {
          from: formatMoney(numberLocale, first.value, currency),
          to: formatMoney(numberLocale, last.value, currency),
        })}
      </figcaption>
    </figure>
  );
}
