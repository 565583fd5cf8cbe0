import type { TradeRow } from '@tradebot/contract';
import { Badge } from '../../../components/ui/badge';
import { Money } from '../../../components/ui/money';
import { Dialog } from '../../../components/ui/dialog';
import {
  formatDateTime,
  formatLots,
  formatPercent,
  formatPrice,
  toneOf,
} from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import styles from './operation-detail.module.css';
import { useNumberLocale } from '../../../lib/number-locale';

/**
 * One operation in full: its targets, how it ended, and the model's estimate at entry set
 * against the break-even rate, with the plain warning that an estimate is not a promise.
 */
export function OperationDetail({
  row,
  onClose,
}: {
  row: TradeRow | undefined;
  onClose: () => void;
}) {
  const { t, language } = useTranslation('dashboard');
  const numberLocale = useNumberLocale(language);
  const direction = row?.Cmd === 0 ? t('operation.buy') : t('operation.sale');
  return (
    <Dialog
      open={row !== undefined}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={
        row ? t('detail.title', { asset: row.OutputName, direction: direction.toLowerCase() }) : ''
      }
      closeLabel={t('detail.close')}
    >
      {row && (
        <>
          <p className={styles.headline}>
            <span className={styles.profit} data-tone={toneOf(row.Profit)}>
              <Money locale={numberLocale} amount={row.Profit} currency={row.currency} signed />
            </span>
            <Badge tone={row.status === 'open' ? 'positive' : 'neutral'}>
              {row.status === 'open' ? t('operation.open') : t('operation.closed')}
            </Badge>
          </p>
          <dl className={styles.facts}>
            <Fact label={t('operation.direction')}>{direction}</Fact>
            <Fact label={t('operation.amount')}>
              {t('operation.lots', { value: formatLots(numberLocale, row.Amount) })} ·{' '}
              {t('detail.units', { value: formatLots(numberLocale, row.units) })}
            </Fact>
            {row.value !== null && (
              <Fact label={t('detail.value')}>
                <Money locale={numberLocale} amount={row.value} currency={row.currency} />
              </Fact>
            )}
            <Fact label={t('detail.openPrice')}>{formatPrice(numberLocale, row.openPrice)}</Fact>
            <Fact label={t('detail.closePrice')}>
              {row.closePrice === null
                ? t('detail.stillOpen')
                : formatPrice(numberLocale, row.closePrice)}
            </Fact>
            <Fact label={t('detail.takeProfit')}>{formatPrice(numberLocale, row.takeProfit)}</Fact>
            <Fact label={t('detail.stopLoss')}>{formatPrice(numberLocale, row.stopLoss)}</Fact>
            <Fact label={t('operation.openTime')}>{formatDateTime(language, row.OpenTime)}</Fact>
            <Fact label={t('detail.closeTime')}>
              {row.CloseTime ? formatDateTime(language, row.CloseTime) : t('detail.stillOpen')}
            </Fact>
            <Fact label={t('detail.closeReason')}>
              {row.closeReason ? t(`detail.reasons.${row.closeReason}`) : t('detail.stillOpen')}
            </Fact>
            <Fact label={t('detail.margin')}>
              <Money locale={numberLocale} amount={row.margin} currency={row.currency} />
            </Fact>
          </dl>
          <section className={styles.model} aria-labelledby="operation-model-title">
            <h3 id="operation-model-title" className={styles.modelTitle}>
              {t('detail.model')}
            </h3>
            <ProbabilityBar
              probability={row.probability}
              breakEven={row.breakEvenProbability}
              probabilityLabel={`${t('detail.probability')}: ${formatPercent(numberLocale, row.probability)}`}
              breakEvenLabel={`${t('detail.breakEven')}: ${formatPercent(numberLocale, row.breakEvenProbability)}`}
            />
            <p className={styles.note}>{t('detail.probabilityNote')}</p>
          </section>
        </>
      )}
    </Dialog>
  );
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className={styles.fact}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** The estimate as a bar from 0 to 100%, the break-even rate as a mark on it. */
function ProbabilityBar({
  probability,
  breakEven,
  probabilityLabel,
  breakEvenLabel,
}: {
  probability: number;
  breakEven: number;
  probabilityLabel: string;
  breakEvenLabel: string;
}) {
  const percent = (share: number) => `${String(Math.min(100, Math.max(0, share * 100)))}%`;
  return (
    <div className={styles.probability}>
      <ul className={styles.legend}>
        <li>
          <span className={styles.swatch} data-kind="estimate" aria-hidden="true" />
          {probabilityLabel}
        </li>
        <li>
          <span className={styles.swatch} data-kind="break-even" aria-hidden="true" />
          {breakEvenLabel}
        </li>
      </ul>
      <div className={styles.track} aria-hidden="true">
        <div className={styles.fill} style={{ width: percent(probability) }} />
        <div className={styles.mark} style={{ left: percent(breakEven) }} />
      </div>
    </div>
  );
}
