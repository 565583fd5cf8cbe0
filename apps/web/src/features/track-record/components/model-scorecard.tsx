import type { TrackRecordModel } from '@tradebot/contract';
import { Card } from '../../../components/ui/card';
import { Table } from '../../../components/ui/table';
import { formatPercent, localeOf } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import styles from './track-record.module.css';
import { useNumberLocale, type NumberLocale } from '../../../lib/number-locale';

function formatBrier(locale: NumberLocale, score: number): string {
  return new Intl.NumberFormat(localeOf(locale), {
    minimumFractionDigits: 3,
    maximumFractionDigits: 3,
  }).format(score);
}

/**
 * The model's Brier skill against the base rate (1 − model ÷ base rate), said by its sign: a
 * negative skill is "worse" by its size, never a negative "better"; one that shows as 0.0 %
 * (what the sentence prints, to a tenth of a percent) is "equal".
 */
export function brierSkill(model: Pick<TrackRecordModel, 'brierScore' | 'baseRateBrierScore'>): {
  context: 'better' | 'worse' | 'equal' | 'unmeasured';
  size: number;
} {
  if (model.brierScore === null || !model.baseRateBrierScore) {
    return { context: 'unmeasured', size: 0 };
  }
  const skill = 1 - model.brierScore / model.baseRateBrierScore;
  if (Math.round(Math.abs(skill) * 1000) === 0) return { context: 'equal', size: 0 };
  return { context: skill > 0 ? 'better' : 'worse', size: Math.abs(skill) };
}

/** The model's accuracy and Brier score beside a coin flip's and the base rate's. */
export function ModelScorecard({ model }: { model: TrackRecordModel }) {
  const { t, language } = useTranslation('track-record');
  const numberLocale = useNumberLocale(language);
  const none = t('figures.none');
  const percent = (share: number | null) =>
    share === null ? none : formatPercent(numberLocale, share);
  const brier = (score: number | null) =>
    score === null ? none : formatBrier(numberLocale, score);
  const rows = [
    { key: 'modelRow', accuracy: model.accuracy, brier: model.brierScore },
    { key: 'coinFlipRow', accuracy: model.coinFlipAccuracy, brier: model.coinFlipBrierScore },
    { key: 'baseRateRow', accuracy: model.baseRateAccuracy, brier: model.baseRateBrierScore },
  ] as const;
  const skill = brierSkill(model);
  return (
    <Card title={t('model.title')} titleId="track-record-model">
      <p className={styles.text}>{t('model.intro', { count: model.forecasts })}</p>
      {model.forecasts === 0 ? (
        <p className={styles.muted}>{t('model.unmeasured')}</p>
      ) : (
        <>
          <Table
            caption={t('model.caption')}
            columns={[t('model.who'), t('model.accuracy'), t('model.brier')]}
          >
            {rows.map((row) => (
              <tr key={row.key}>
                <th scope="row">{t(`model.${row.key}`)}</th>
                <td className={styles.number}>{percent(row.accuracy)}</td>
                <td className={styles.number}>{brier(row.brier)}</td>
              </tr>
            ))}
          </Table>
          <p className={styles.caption}>
            {t('model.calibration', {
              mean: percent(model.meanProbability),
              baseRate: percent(model.baseRate),
            })}
          </p>
          <p className={styles.caption}>
            {t('model.skill', {
              context: skill.context,
              skill: formatPercent(numberLocale, skill.size),
            })}
          </p>
          <Table
            caption={t('model.deciles.caption')}
            columns={[
              t('model.deciles.decile'),
              t('model.deciles.claimed'),
              t('model.deciles.hit'),
              t('model.deciles.count'),
            ]}
          >
            {model.calibration.map((row) => (
              <tr key={row.decile}>
                <th scope="row">{row.decile}</th>
                <td className={styles.number}>{percent(row.claimed)}</td>
                <td className={styles.number}>{percent(row.hit)}</td>
                <td className={styles.number}>{row.count}</td>
              </tr>
            ))}
          </Table>
          <p className={styles.caption}>{t('model.deciles.help')}</p>
        </>
      )}
      <p className={styles.caption}>{t('model.accuracyHelp')}</p>
      <p className={styles.caption}>{t('model.brierHelp')}</p>
      <p className={styles.caption}>
        {/* Mid-sentence, a missing rate is said in words of its own, not as the "Sin datos" cell. */}
        {t('model.baseRateHelp', {
          baseRate: percent(model.baseRate),
          context: model.baseRate === null ? 'unmeasured' : undefined,
        })}
      </p>
    </Card>
  );
}
