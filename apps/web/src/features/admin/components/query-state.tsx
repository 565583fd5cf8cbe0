import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { Notice } from '../../../components/ui/notice';
import { Skeleton } from '../../../components/ui/skeleton';
import { useTranslation } from '../../../lib/i18n';
import styles from '../admin.module.css';

/**
 * A query's loading and error states, and its data once there: every console screen says
 * when it is loading, and offers a retry with the server's message when it failed.
 */
export function QueryState<T>({
  query,
  children,
}: {
  query: UseQueryResult<T>;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation('admin');
  if (query.data !== undefined) return <>{children(query.data)}</>;
  if (query.isError) {
    return (
      <Notice
        tone="error"
        title={t('loadFailed')}
        action={
          <Button
            size="sm"
            color="secondary"
            label={t('retry')}
            onClick={() => void query.refetch()}
          />
        }
      >
        {query.error.message}
      </Notice>
    );
  }
  return <Skeleton height="12rem" />;
}

/** "1–50 of 120", with the previous and next pages. */
export function Pager({
  offset,
  pageSize,
  total,
  onOffset,
}: {
  offset: number;
  pageSize: number;
  total: number;
  onOffset: (offset: number) => void;
}) {
  const { t } = useTranslation('admin');
  if (total <= pageSize && offset === 0) return null;
  return (
    <nav className={styles.pager} aria-label={t('pager.label')}>
      <p>
        {t('pager.range', {
          from: total === 0 ? 0 : offset + 1,
          to: Math.min(offset + pageSize, total),
          total,
        })}
      </p>
      <div className={styles.pagerButtons}>
        <Button
          size="sm"
          color="other"
          label={t('pager.previous')}
          disabled={offset === 0}
          onClick={() => {
            onOffset(Math.max(0, offset - pageSize));
          }}
        />
        <Button
          size="sm"
          color="other"
          label={t('pager.next')}
          disabled={offset + pageSize >= total}
          onClick={() => {
            onOffset(offset + pageSize);
          }}
        />
      </div>
    </nav>
  );
}
