import type { TradeRow } from '@tradebot/contract';
import { measureElement, useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { shouldLoadMore } from '../history-pages';
import { OperationRow, OperationsHeader } from './operation-row';
import styles from './operations.module.css';

/** A row re-renders when its operation changes, not each time the list scrolls. */
const HistoryRow = memo(OperationRow);

/** The first guess at a row's height per layout, until a row has been measured. */
const guessedRowHeight = { wide: 62, narrow: 140 };

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
  const [wideLayout] = useState(() => window.matchMedia('(min-width: 900px)'));
  // The rows of a layout (the phone card, the desktop line) share a height but for the odd
  // wrapped line, the shortest measured so far. Rows not yet measured are estimated at it,
  // so that the list's length is right from the start and measuring a row as it scrolls in
  // changes nothing: no re-render, no scroll correction (decision 055).
  const rowHeights = useRef<{ wide?: number; narrow?: number }>({});
  // A new key function makes the virtualizer recompute every row's position; one per list.
  const getItemKey = useCallback((index: number) => rows[index]?.id ?? index, [rows]);
  // The virtualizer's functions change as it measures; nothing here is memoised on them.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    // Called for every row not yet measured, each time positions are computed: cheap.
    estimateSize: () => {
      const layout = wideLayout.matches ? 'wide' : 'narrow';
      return rowHeights.current[layout] ?? guessedRowHeight[layout];
    },
    measureElement: (element, entry, instance) => {
      const height = measureElement(element, entry, instance);
      const layout = wideLayout.matches ? 'wide' : 'narrow';
      const shortest = rowHeights.current[layout];
      if (height > 0 && (shortest === undefined || height < shortest)) {
        rowHeights.current[layout] = height;
      }
      return height;
    },
    overscan: 8,
    getItemKey,
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
      <OperationsHeader kind="closed" />
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
                <HistoryRow row={row} kind="closed" onSelect={onSelect} />
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
