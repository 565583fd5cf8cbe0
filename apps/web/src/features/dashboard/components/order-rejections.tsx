import type { OrderRejection } from '@tradebot/contract';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Notice } from '../../../components/ui/notice';
import { Skeleton } from '../../../components/ui/skeleton';
import { formatDateTime } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { useOrderRejections } from '../api/get-order-rejections';
import styles from './dashboard.module.css';

/**
 * Broker codes said in words of their own (decision 101): a holiday is not a closed session, and
 * "not enough money" is more than "margin". Any other code is named as the broker gave it.
 */
const wordedBrokerCodes = new Set([
  'SYMBOL_HAS_HOLIDAY',
  'SERVER_IS_UNDER_MAINTENANCE',
  'TRADING_DISABLED',
  'NOT_ENOUGH_MONEY',
  'MAX_EXPOSURE_REACHED',
  'TOO_MANY_POSITIONS',
  'BROKER_DISCONNECTED',
]);

/** Why the order was refused, in a plain sentence of the reader's language. */
export function rejectionText(
  t: TFunction<'dashboard'>,
  rejection: Pick<OrderRejection, 'reason' | 'brokerCode'>,
): string {
  const { reason, brokerCode } = rejection;
  if (brokerCode !== null && wordedBrokerCodes.has(brokerCode)) {
    return t(`rejections.codes.${brokerCode}`);
  }
  if (reason === 'BROKER_REJECTED') {
    return brokerCode === null
      ? t('rejections.reasons.BROKER_REJECTED')
      : t('rejections.brokerSaid', { code: brokerCode });
  }
  return t(`rejections.reasons.${reason}`);
}

export interface OrderRejectionsListProps {
  rejections: readonly OrderRejection[];
  loading: boolean;
  failed: boolean;
  onRetry: () => void;
  hasMore: boolean;
  loadingMore: boolean;
  loadMoreFailed: boolean;
  onLoadMore: () => void;
}

/** The account's recent refused orders, each with when, what, which way and why (decision 101). */
export function OrderRejectionsList({
  rejections,
  loading,
  failed,
  onRetry,
  hasMore,
  loadingMore,
  loadMoreFailed,
  onLoadMore,
}: OrderRejectionsListProps) {
  const { t, language } = useTranslation('dashboard');
  return (
    <Card title={t('rejections.title')} titleId="rejections-title">
      <div className={styles.stack}>
        <p className={styles.hint}>{t('rejections.intro')}</p>
        {loading ? (
          <div className={styles.stack} aria-busy="true">
            <Skeleton height="2.5rem" />
            <Skeleton height="2.5rem" />
          </div>
        ) : failed && rejections.length === 0 ? (
          <Notice
            tone="error"
            title={t('rejections.loadError')}
            action={
              <Button size="sm" color="other" onClick={onRetry}>
                {t('retry')}
              </Button>
            }
          />
        ) : rejections.length === 0 ? (
          <p className={styles.muted}>{t('rejections.empty')}</p>
        ) : (
          <>
            <ul className={styles.rejections} aria-labelledby="rejections-title">
              {rejections.map((rejection) => (
                <li key={rejection.id} className={styles.rejection}>
                  <p className={styles.rejectionHead}>
                    <strong>{rejection.OutputName}</strong>
                    <span>
                      {rejection.side === 'buy' ? t('operation.buy') : t('operation.sale')}
                    </span>
                    <time dateTime={rejection.at} className={styles.muted}>
                      {formatDateTime(language, rejection.at)}
                    </time>
                  </p>
                  <p className={styles.rejectionReason}>{rejectionText(t, rejection)}</p>
                </li>
              ))}
            </ul>
            {loadMoreFailed && <Notice tone="error" title={t('rejections.loadMoreError')} />}
            {hasMore && (
              <Button
                size="sm"
                color="other"
                className={styles.rejectionsMore}
                loading={loadingMore}
                onClick={onLoadMore}
              >
                {t('rejections.more')}
              </Button>
            )}
          </>
        )}
      </div>
    </Card>
  );
}

/** The list on the dashboard, from GET order-rejections. */
export function OrderRejections() {
  const query = useOrderRejections();
  const rejections = useMemo(
    () => (query.data?.pages ?? []).flatMap((page) => page.rejections),
    [query.data],
  );
  return (
    <OrderRejectionsList
      rejections={rejections}
      loading={query.isPending}
      failed={query.isError}
      onRetry={() => void query.refetch()}
      hasMore={query.hasNextPage}
      loadingMore={query.isFetchingNextPage}
      loadMoreFailed={query.isFetchNextPageError}
      onLoadMore={() => void query.fetchNextPage()}
    />
  );
}
