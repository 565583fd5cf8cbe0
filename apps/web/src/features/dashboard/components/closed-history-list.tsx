import type { TradeRow } from '@tradebot/contract';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { shouldLoadMore } from '../history-pages';
import { OperationRow, OperationsHeader } from './operation-row';
import styles from './operations.module.css';

interface ClosedHistoryListProps {
  rows: readonly TradeRow[];
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  loadMoreFailed: boolean;
  fetchNextPage: () => void;
  onSelect: (id: string) => void;
}

/**
 * The closed history, virtualized: only the rows in view (and a few around) are in the
 * document, so ten thousand scroll like ten. Nearing the end asks for the next page.
 */
export function ClosedHistoryList({
  rows,
  hasNextPage,
  isFetchingNextPage,
  loadMoreFailed,
  fetchNextPage,
  onSelect,
}: ClosedHistoryListProps) {
  const { t } = useTranslation('dashboard');
  const scroller = useRef<HTMLDivElement>(null);
  // The row's height differs between the phone card and the desktop line; each row is
  // measured once rendered, this is only the first guess.
  // The virtualizer's functions change as it measures; nothing here is memoised on them.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => (window.matchMedia('(min-width: 900px)').matches ? 49 : 150),
    overscan: 8,
    getItemKey: (index) => rows[index]?.id ?? index,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? -1;

  useEffect(() => {
    if (shouldLoadMore(lastIndex, rows.length, hasNextPage, isFetchingNextPage || loadMoreFailed)) {
      fetchNextPage();
    }
  }, [lastIndex, rows.length, hasNextPage, isFetchingNextPage, loadMoreFailed, fetchNextPage]);

  return (
    <>
      <OperationsHeader />
      <div
        ref={scroller}
        className={styles.scroller}
        tabIndex={0}
        role="region"
        aria-label={t('history.list')}
      >
        <ul
          className={`${styles.list} ${styles.virtualBody}`}
          style={{ height: virtualizer.getTotalSize() }}
        >
          {items.map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            return (
              <li
                key={item.key}
                ref={virtualizer.measureElement}
                data-index={item.index}
                className={styles.virtualItem}
                style={{ transform: `translateY(${String(item.start)}px)` }}
                aria-setsize={rows.length}
                aria-posinset={item.index + 1}
              >
                <OperationRow row={row} onSelect={onSelect} />
              </li>
            );
          })}
        </ul>
      </div>
      {isFetchingNextPage && (
        <p className={styles.status} role="status">
          {t('history.loadingMore')}
        </p>
      )}
    </>
  );
}
