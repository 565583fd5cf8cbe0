import { historyPeriods, type HistoryPeriod } from '@tradebot/contract';
import { useMemo } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Notice } from '../../../components/ui/notice';
import { SegmentedControl } from '../../../components/ui/segmented-control';
import { Skeleton } from '../../../components/ui/skeleton';
import { useTranslation } from '../../../lib/i18n';
import { useEquityCurve } from '../api/get-equity-curve';
import { useExportHistoryCsv } from '../api/export-history-csv';
import { useClosedHistory } from '../api/get-closed-history';
import { flattenPages } from '../history-pages';
import { ClosedHistoryList } from './closed-history-list';
import { EquityCurve } from './equity-curve';
import styles from './dashboard.module.css';

/**
 * The closed operations of a period (spec §2 filter), their curve and their CSV export; on a
 * phone the list and the curve are separate tabs (`show`).
 */
export function HistorySection({
  period,
  onPeriodChange,
  onSelect,
  show = 'all',
}: {
  period: HistoryPeriod;
  onPeriodChange: (period: HistoryPeriod) => void;
  onSelect: (id: string) => void;
  show?: 'all' | 'list' | 'chart';
}) {
  const { t } = useTranslation('dashboard');
  const history = useClosedHistory(period);
  const curve = useEquityCurve(period);
  const exportCsv = useExportHistoryCsv();
  const rows = useMemo(() => flattenPages(history.data?.pages ?? []), [history.data]);
  const total = history.data?.pages[0]?.total ?? 0;

  return (
    <Card
      title={show === 'chart' ? t('chart.title') : t('history.title')}
      titleId="history-title"
      actions={
        <>
          <SegmentedControl
            label={t('history.period')}
            value={period}
            onValueChange={onPeriodChange}
            options={historyPeriods.map((value) => ({
              value,
              label: t(`history.periods.${value}`),
            }))}
          />
          {show !== 'chart' && (
            <Button
              size="sm"
              color="other"
              loading={exportCsv.isPending}
              disabled={total === 0}
              onClick={() => {
                exportCsv.mutate(period);
              }}
            >
              {t('history.export')}
            </Button>
          )}
        </>
      }
    >
      <div className={styles.stack}>
        {exportCsv.isError && <Notice tone="error" title={t('history.exportError')} />}
        {show !== 'list' && (
          <EquityCurve
            points={curve.data}
            loading={curve.isPending}
            failed={curve.isError}
            onRetry={() => void curve.refetch()}
          />
        )}
        {show === 'chart' ? null : history.isPending ? (
          <div className={styles.stack}>
            <Skeleton height="3rem" />
            <Skeleton height="3rem" />
            <Skeleton height="3rem" />
          </div>
        ) : history.isError && rows.length === 0 ? (
          <Notice
            tone="error"
            title={t('loadError')}
            action={
              <Button size="sm" color="other" onClick={() => void history.refetch()}>
                {t('retry')}
              </Button>
            }
          />
        ) : rows.length === 0 ? (
          <p className={styles.muted}>{t('history.empty')}</p>
        ) : (
          <>
            <p className={styles.muted} aria-live="polite">
              {t('history.total', { count: total })}
            </p>
            <ClosedHistoryList
              rows={rows}
              hasNextPage={history.hasNextPage}
              isFetchingNextPage={history.isFetchingNextPage}
              loadMoreFailed={history.isFetchNextPageError}
              fetchNextPage={() => void history.fetchNextPage()}
              onSelect={onSelect}
            />
            {history.isFetchNextPageError && (
              <Notice
                tone="error"
                title={t('history.loadMoreError')}
                action={
                  <Button size="sm" color="other" onClick={() => void history.fetchNextPage()}>
                    {t('retry')}
                  </Button>
                }
              />
            )}
          </>
        )}
      </div>
    </Card>
  );
}
