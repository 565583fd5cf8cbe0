import type { TrackRecordSummary } from '@tradebot/contract';
import { Card } from '../../../components/ui/card';
import { formatMoney, formatPercent } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import styles from './track-record.module.css';

/** The win rate set against the rate at which the measured wins pay for the losses. */
export function BreakEven({ summary }: { summary: TrackRecordSummary }) {
  const { t, language } = useTranslation('track-record');
  const { winRate, breakEvenWinRate, averageWin, averageLoss, geometryBreakEvenRate } = summary;
  const measured =
    winRate !== null && breakEvenWinRate !== null && averageWin !== null && averageLoss !== null;
  return (
    <Card title={t('breakEven.title')} titleId="track-record-break-even">
      {measured ? (
        <>
          <p className={styles.verdict}>
            {t(winRate > breakEvenWinRate ? 'breakEven.above' : 'breakEven.below', {
              winRate: formatPercent(language, winRate),
            })}
          </p>
          <p className={styles.text}>
            {t('breakEven.measured', {
              averageWin: formatMoney(language, averageWin),
              averageLoss: formatMoney(language, averageLoss),
              breakEven: formatPercent(language, breakEvenWinRate),
            })}
          </p>
        </>
      ) : (
        <p className={styles.text}>{t('breakEven.unmeasured')}</p>
      )}
      <p className={styles.text}>{t('breakEven.why')}</p>
      {geometryBreakEvenRate !== null && (
        <p className={styles.text}>
          {t('breakEven.geometry', { geometry: formatPercent(language, geometryBreakEvenRate) })}
        </p>
      )}
    </Card>
  );
}
