import type { TradeRow } from '@tradebot/contract';
import { Badge } from '../../../components/ui/badge';
import {
  formatDateTime,
  formatLots,
  formatPrice,
  formatSignedMoney,
  toneOf,
} from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { AssetBadge } from './asset-badge';
import styles from './operations.module.css';

/** The column headings of an operations list, shown from 900 px. */
export function OperationsHeader() {
  const { t } = useTranslation('dashboard');
  return (
    <div className={styles.header} aria-hidden="true">
      <span>{t('operation.asset')}</span>
      <span>{t('operation.direction')}</span>
      <span className={styles.number}>{t('operation.amount')}</span>
      <span className={styles.number}>{t('operation.price')}</span>
      <span>{t('operation.openTime')}</span>
      <span className={styles.number}>{t('operation.profit')}</span>
      <span>{t('operation.status')}</span>
    </div>
  );
}

/**
 * One operation (spec §2): asset, direction, amount, price, opening, profit and status. The
 * whole row is the button that opens its detail; each figure carries its own label for a
 * screen reader and for the phone layout, where there are no column headings.
 */
export function OperationRow({ row, onSelect }: { row: TradeRow; onSelect: (id: string) => void }) {
  const { t, language } = useTranslation('dashboard');
  const tone = toneOf(row.Profit);
  const direction = row.Cmd === 0 ? t('operation.buy') : t('operation.sale');
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
        <span className={styles.name}>{row.OutputName}</span>
      </span>
      <span className={styles.cell}>
        <span className={styles.cellLabel}>{t('operation.direction')}</span>
        <Badge tone={row.Cmd === 0 ? 'info' : 'warning'}>{direction}</Badge>
      </span>
      <span className={`${styles.cell} ${styles.number}`}>
        <span className={styles.cellLabel}>{t('operation.amount')}</span>
        {t('operation.lots', { value: formatLots(language, row.Amount) })}
      </span>
      <span className={`${styles.cell} ${styles.number}`}>
        <span className={styles.cellLabel}>{t('operation.price')}</span>
        {formatPrice(language, row.openPrice)}
      </span>
      <span className={styles.cell}>
        <span className={styles.cellLabel}>{t('operation.openTime')}</span>
        {formatDateTime(language, row.OpenTime)}
      </span>
      <span className={`${styles.cell} ${styles.number} ${styles.profit}`} data-tone={tone}>
        <span className={styles.cellLabel}>{t('operation.profit')}</span>
        {formatSignedMoney(language, row.Profit)}
      </span>
      <span className={styles.cell}>
        <span className={styles.cellLabel}>{t('operation.status')}</span>
        <Badge tone={row.status === 'open' ? 'positive' : 'neutral'}>
          {row.status === 'open' ? t('operation.open') : t('operation.closed')}
        </Badge>
      </span>
    </button>
  );
}
