import type { TradeRow } from '@tradebot/contract';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { useTranslation } from '../../../lib/i18n';
import { useCloseOperation } from '../api/close-operation';
import { CloseOperation, CloseOutcome } from './close-operation';
import { OperationRow, OperationsHeader } from './operation-row';
import styles from './operations.module.css';

/**
 * The open operations, their profit moving with prices (real-time events replace them). Each
 * can be closed on its own (decision 152): a button beside its row, since the row itself is the
 * button that opens its detail.
 */
export function OpenOperations({
  trades,
  loading,
  onSelect,
}: {
  trades: readonly TradeRow[];
  loading: boolean;
  onSelect: (id: string) => void;
}) {
  const { t } = useTranslation('dashboard');
  const closing = useCloseOperation();
  return (
    <Card
      title={t('open.title')}
      titleId="open-operations-title"
      actions={
        loading ? undefined : (
          <span className={styles.count}>{t('open.count', { count: trades.length })}</span>
        )
      }
    >
      <CloseOutcome closing={closing} />
      {loading ? (
        <div className={styles.list}>
          <Skeleton height="3rem" />
          <Skeleton height="3rem" />
        </div>
      ) : trades.length === 0 ? (
        <p className={styles.empty}>{t('open.empty')}</p>
      ) : (
        <>
          <OperationsHeader kind="open" />
          <ul className={styles.list} aria-labelledby="open-operations-title">
            {trades.map((row) => (
              <li key={row.id} className={styles.closable}>
                <OperationRow row={row} kind="open" onSelect={onSelect} />
                <div className={styles.closeAction}>
                  <CloseOperation row={row} closing={closing} />
                </div>
              </li>
            ))}
          </ul>
          {/* Every new trade starts red: said once, where the red figures are. */}
          <details className={styles.explainer}>
            <summary>{t('open.spreadTitle')}</summary>
            <p>{t('open.spreadNote')}</p>
          </details>
        </>
      )}
    </Card>
  );
}
