import type { EquityPoint } from '@tradebot/contract';
import { lazy, Suspense } from 'react';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { formatMoney } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import styles from './track-record.module.css';
import { useNumberLocale } from '../../../lib/number-locale';

// lightweight-charts is the page's heaviest piece: fetched once there is a curve to draw.
const EquityChart = lazy(() => import('../../../components/equity-chart/equity-chart'));

/** The balance from the opening deposit through every closure. */
export function EquityCard({ points }: { points: readonly EquityPoint[] }) {
  const { t, language } = useTranslation('track-record');
  const numberLocale = useNumberLocale(language);
  const first = points[0];
  const last = points.at(-1);
  return (
    <Card title={t('chart.title')} titleId="track-record-chart">
      {points.length < 2 || !first || !last ? (
        <p className={styles.muted}>{t('chart.empty')}</p>
      ) : (
        <figure className={styles.chart} aria-label={t('chart.label')}>
          <Suspense fallback={<Skeleton height="12rem" />}>
            <EquityChart points={points} locale={numberLocale} />
          </Suspense>
          <figcaption className={styles.caption}>
            {t('chart.summary', {
              from: formatMoney(numberLocale, first.value),
              to: formatMoney(numberLocale, last.value),
            })}
          </figcaption>
        </figure>
      )}
    </Card>
  );
}
