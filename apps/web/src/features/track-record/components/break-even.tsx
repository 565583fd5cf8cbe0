import type { TrackRecordSummary } from '@tradebot/contract';
import { Card } from '../../../components/ui/card';
import { Stat } from '../../../components/ui/stat';
import { formatMoney, formatPercent } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import styles from './track-record.module.css';
import { useNumberLocale } from '../../../lib/number-locale';

/**
 * The break-even among the record's figures: measured from the average win and loss once both
 * exist, else the one the targets' geometry gives, each saying which it is (issue 39 point 8: the
 * figure read "Sin datos" above a text that gave the geometry's 93 %).
 */
export function BreakEvenStat({ summary }: { summary: TrackRecordSummary }) {
  const { t, language } = useTranslation('track-record');
  const numberLocale = useNumberLocale(language);
  const { breakEvenWinRate, geometryBreakEvenRate } = summary;
  const [value, hint] =
    breakEvenWinRate !== null
      ? [breakEvenWinRate, t('figures.breakEvenHint')]
      : geometryBreakEvenRate !== null
        ? [geometryBreakEvenRate, t('figures.breakEvenGeometryHint')]
        : [null, t('figures.breakEvenHint')];
  return (
    <Stat
      label={t('figures.breakEven')}
      value={value === null ? t('figures.none') : formatPercent(numberLocale, value)}
      hint={hint}
    />
  );
}

/** The win rate set against the rate at which the measured wins pay for the losses. */
export function BreakEven({ summary }: { summary: TrackRecordSummary }) {
  const { t, language } = useTranslation('track-record');
  const numberLocale = useNumberLocale(language);
  const { winRate, breakEvenWinRate, averageWin, averageLoss, geometryBreakEvenRate } = summary;
  const measured =
    winRate !== null && breakEvenWinRate !== null && averageWin !== null && averageLoss !== null;
  return (
    <Card title={t('breakEven.title')} titleId="track-record-break-even">
      {measured ? (
        <>
          <p className={styles.verdict}>
            {t(winRate > breakEvenWinRate ? 'breakEven.above' : 'breakEven.below', {
              winRate: formatPercent(numberLocale, winRate),
            })}
          </p>
          <p className={styles.text}>
            {t('breakEven.measured', {
              averageWin: formatMoney(numberLocale, averageWin),
              averageLoss: formatMoney(numberLocale, averageLoss),
              breakEven: formatPercent(numberLocale, breakEvenWinRate),
            })}
          </p>
        </>
      ) : (
        <p className={styles.text}>{t('breakEven.unmeasured')}</p>
      )}
      <p className={styles.text}>{t('breakEven.why')}</p>
      {geometryBreakEvenRate !== null && (
        <p className={styles.text}>
          {t('breakEven.geometry', {
            geometry: formatPercent(numberLocale, geometryBreakEvenRate),
          })}
        </p>
      )}
    </Card>
  );
}
