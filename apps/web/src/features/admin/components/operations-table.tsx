import type { TradeRow } from '@tradebot/contract';
import { Money } from '../../../components/ui/money';
import { Table } from '../../../components/ui/table';
import { formatDateTime, formatLots, formatPrice } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import styles from '../admin.module.css';

/**
 * A user's operations as support reads them: asset, direction, size, prices, profit, the profit
 * in the operation's own currency (decision 097: a broker account's, USD on the built-in platform).
 */
export function OperationsTable({
  caption,
  rows,
  empty,
}: {
  caption: string;
  rows: readonly TradeRow[];
  empty: string;
}) {
  const { t, language } = useTranslation('admin');
  if (rows.length === 0) return <p className={styles.muted}>{empty}</p>;
  return (
    <Table
      caption={caption}
      columns={[
        t('operations.asset'),
        t('operations.direction'),
        t('operations.amount'),
        t('operations.opened'),
        t('operations.openPrice'),
        t('operations.closed'),
        t('operations.profit'),
      ]}
    >
      {rows.map((row) => (
        <tr key={row.id}>
          <td>{row.OutputName}</td>
          <td>{t(`operations.${row.side}`)}</td>
          <td>{formatLots(language, row.Amount)}</td>
          <td>{formatDateTime(language, row.OpenTime)}</td>
          <td>{formatPrice(language, row.openPrice)}</td>
          <td>
            {row.CloseTime
              ? `${formatDateTime(language, row.CloseTime)} (${t(`operations.reasons.${row.closeReason ?? 'tp'}`)})`
              : t('operations.stillOpen')}
          </td>
          <td>
            <Money locale={language} amount={row.Profit} currency={row.currency} signed />
          </td>
        </tr>
      ))}
    </Table>
  );
}
