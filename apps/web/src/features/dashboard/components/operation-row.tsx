import type { TradeRow } from '@tradebot/contract';
import { Badge } from '../../../components/ui/badge';
import { Money } from '../../../components/ui/money';
import { VisuallyHidden } from '../../../components/ui/visually-hidden';
import {
  formatDateTime,
  formatDuration,
  formatLots,
  formatMoney,
  formatPrice,
  toneOf,
} from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { AssetBadge } from './asset-badge';
import styles from './operations.module.css';
import { useNumberLocale } from '../../../lib/number-locale';

/** Open operations show where they started; closed ones how they ended and how long they ran. */
export type OperationListKind = 'open' | 'closed';

/** The column headings of an operations list, shown from 900 px. */
export function OperationsHeader({ kind }: { kind: OperationListKind }) {
  const { t } = useTranslation('dashboard');
  return (
    <div className={styles.header} data-kind={kind} aria-hidden="true">
      <span>{t('operation.asset')}</span>
      <span className={styles.number}>{t('operation.capital')}</span>
      <span className={styles.number}>
        {kind === 'open' ? t('operation.price') : t('operation.prices')}
      </span>
      <span>{kind === 'open' ? t('operation.openTime') : t('operation.closeTime')}</span>
      <span className={styles.number}>{t('operation.profit')}</span>
    </div>
  );
}

/**
 * One operation (spec §2): asset and direction, the capital it uses in the account's currency
 * (lots as a detail, with what they are worth in that currency: decision 156), its price, its time and its result. A closed one shows its opening and
 * closing prices, its closing time and how long it lasted. The whole row is the button that
 * opens its detail; each figure carries its own label for a screen reader and for the phone
 * layout, where there are no column headings.
 */
export function OperationRow({
  row,
  kind,
  onSelect,
}: {
  row: TradeRow;
  kind: OperationListKind;
  onSelect: (id: string) => void;
}) {
  const { t, language } = useTranslation('dashboard');
  const numberLocale = useNumberLocale(language);
  const tone = toneOf(row.Profit);
  const direction = row.Cmd === 0 ? t('operation.buy') : t('operation.sale');
  const closed = kind === 'closed' && row.closePrice !== null && row.CloseTime !== null;
  const duration = row.CloseTime ? formatDuration(numberLocale, row.OpenTime, row.CloseTime) : null;
  return (
    <button
      type="button"
      className={styles.row}
      onClick={() => {
        onSelect(row.id);
      }}
      data-operation-id={row.id}
    >
      <span className={styles.asset}>
        <AssetBadge base={row.Icon1} quote={row.Icon2} />
        <span className={styles.name} data-asset-name>
          {row.OutputName}
        </span>
        <VisuallyHidden>{t('operation.direction')}</VisuallyHidden>
        <Badge tone={row.Cmd === 0 ? 'info' : 'warning'}>{direction}</Badge>
      </span>
      <span className={`${styles.cell} ${styles.number} ${styles.capital}`}>
        <span className={styles.cellLabel}>{t('operation.capital')}</span>
        <Money locale={numberLocale} amount={row.margin} currency={row.currency} />
        <span className={styles.detail}>
          {row.value === null
            ? t('operation.lots', { value: formatLots(numberLocale, row.Amount) })
            : t('operation.lotsWorth', {
                lots: formatLots(numberLocale, row.Amount),
                money: formatMoney(numberLocale, row.value, row.currency),
              })}
        </span>
      </span>
      <span className={`${styles.cell} ${styles.number} ${styles.price}`}>
        <span className={styles.cellLabel}>
          {closed ? t('operation.prices') : t('operation.price')}
        </span>
        {closed && row.closePrice !== null ? (
          <>
            {formatPrice(numberLocale, row.openPrice)}
            <span className={styles.detail}>→ {formatPrice(numberLocale, row.closePrice)}</span>
          </>
        ) : (
          formatPrice(numberLocale, row.openPrice)
        )}
      </span>
      <span className={`${styles.cell} ${styles.time}`}>
        <span className={styles.cellLabel}>
          {closed ? t('operation.closeTime') : t('operation.openTime')}
        </span>
        {closed && row.CloseTime ? (
          <>
            {formatDateTime(language, row.CloseTime)}
            {duration && (
              <span className={styles.detail}>{t('operation.lasted', { duration })}</span>
            )}
          </>
        ) : (
          formatDateTime(language, row.OpenTime)
        )}
      </span>
      <span className={`${styles.cell} ${styles.number} ${styles.profit}`} data-tone={tone}>
        <span className={styles.cellLabel}>{t('operation.profit')}</span>
        <Money locale={numberLocale} amount={row.Profit} currency={row.currency} signed />
      </span>
    </button>
  );
}
