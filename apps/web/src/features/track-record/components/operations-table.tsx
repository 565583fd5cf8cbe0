import type { TradeRow } from '@tradebot/contract';
import { Badge } from '../../../components/ui/badge';
import { Table } from '../../../components/ui/table';
import { formatDateTime, formatPercent, formatSignedMoney } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import styles from './track-record.module.css';
import { useNumberLocale } from '../../../lib/number-locale';

/** Every operation listed so far, newest opened first: gains and losses alike. */
export function OperationsTable({ rows }: { rows: readonly TradeRow[] }) {
  const { t, language } = useTranslation('track-record');
  const numberLocale = useNumberLocale(language);
  return (
    <Table
      caption={t('list.caption')}
      captionHidden
      columns={[
        t('list.asset'),
        t('list.side'),
        t('list.opened'),
        t('list.closed'),
        t('list.probability'),
        t('list.result'),
      ]}
    >
      {rows.map((row) => {
        const tone = row.Profit > 0 ? styles.positive : row.Profit < 0 ? styles.negative : '';
        return (
          <tr key={row.id} data-operation-id={row.id}>
            <th scope="row">{row.OutputName || row.symbol}</th>
            <td>{t(`list.${row.side}`)}</td>
            <td className={styles.number}>{formatDateTime(language, row.OpenTime)}</td>
            <td className={styles.number}>
              {row.CloseTime ? formatDateTime(language, row.CloseTime) : '—'}
            </td>
            <td className={styles.number}>{formatPercent(numberLocale, row.probability)}</td>
            <td>
              {row.status === 'open' || !row.closeReason ? (
                <Badge tone="info">{t('list.open')}</Badge>
              ) : (
                <>
                  <span className={`${styles.number} ${tone}`}>
                    {formatSignedMoney(numberLocale, row.Profit)}
                  </span>
                  <span className={styles.reason}>{t(`list.reason.${row.closeReason}`)}</span>
                </>
              )}
            </td>
          </tr>
        );
      })}
    </Table>
  );
}
