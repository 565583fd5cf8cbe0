import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { TrackRecord } from '@tradebot/contract';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Notice } from '../../../components/ui/notice';
import { Page } from '../../../components/ui/page';
import { Skeleton } from '../../../components/ui/skeleton';
import { Stat, StatGrid } from '../../../components/ui/stat';
import { formatDateTime, formatMoney, formatPercent, formatSignedMoney } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';
import { useTrackRecord } from '../api/get-track-record';
import { BreakEven, BreakEvenStat } from '../components/break-even';
import { EquityCard } from '../components/equity-card';
import { MarketsComparison } from '../../../components/markets-comparison/markets-comparison';
import { ModelScorecard } from '../components/model-scorecard';
import { OperationsTable } from '../components/operations-table';
import styles from '../components/track-record.module.css';
import { useNumberLocale } from '../../../lib/number-locale';

/**
 * The public track record (issue 12; docs/decisions/060): the robot's own account, every
 * operation, and whether it pays. The heading and the lead are prerendered; the figures load
 * after, and are shown whatever they are.
 */
export default function TrackRecordRoute() {
  return (
    <QueryClientProvider client={queryClient}>
      <TrackRecordPage />
    </QueryClientProvider>
  );
}

function TrackRecordPage() {
  const { t } = useTranslation('track-record');
  return (
    <Page title={t('title')} intro={t('lead')} width="wide">
      <div className={styles.stack}>
        <p className={styles.muted}>{t('simulated')}</p>
        <TrackRecordBody />
      </div>
    </Page>
  );
}

function TrackRecordBody() {
  const { t } = useTranslation('track-record');
  const query = useTrackRecord();
  const pages = query.data?.pages;
  const first = pages?.[0];
  if (!first) {
    if (query.isError) {
      return (
        <Notice
          tone="error"
          title={t('error')}
          action={
            <Button size="sm" color="other" onClick={() => void query.refetch()}>
              {t('retry')}
            </Button>
          }
        />
      );
    }
    return (
      <div className={styles.loading} role="status">
        <p className={styles.muted}>{t('loading')}</p>
        <Skeleton height="5rem" />
        <Skeleton height="12rem" />
      </div>
    );
  }
  const rows = pages.flatMap((page) => page.operations);
  return (
    <>
      {!first.running && (
        <Notice tone="warning" title={t('notRunning.title')}>
          {t('notRunning.text')}
        </Notice>
      )}
      <p className={styles.muted}>{t('markets.lead')}</p>
      <MarketsComparison record={first} />
      <Record
        record={first}
        rows={rows}
        more={
          query.hasNextPage ? (
            <Button
              color="secondary"
              loading={query.isFetchingNextPage}
              onClick={() => void query.fetchNextPage()}
            >
              {t('list.more')}
            </Button>
          ) : null
        }
      />
    </>
  );
}

function Record({
  record,
  rows,
  more,
}: {
  record: TrackRecord;
  rows: readonly TrackRecord['operations'][number][];
  more: ReactNode;
}) {
  const { t, language } = useTranslation('track-record');
  const numberLocale = useNumberLocale(language);
  const { summary } = record;
  if (!summary) {
    return record.running ? <Notice title={t('empty.title')}>{t('empty.text')}</Notice> : null;
  }
  const none = t('figures.none');
  const percent = (share: number | null) =>
    share === null ? none : formatPercent(numberLocale, share);
  return (
    <>
      <p className={styles.muted}>
        {t('since', {
          date: formatDateTime(language, summary.startedAt),
          start: formatMoney(numberLocale, summary.startingBalance),
        })}
      </p>
      <StatGrid label={t('figures.label')}>
        <Stat label={t('figures.balance')} value={formatMoney(numberLocale, summary.balance)} />
        <Stat
          label={t('figures.profit')}
          value={formatSignedMoney(numberLocale, summary.profit)}
          tone={summary.profit > 0 ? 'positive' : summary.profit < 0 ? 'negative' : 'neutral'}
          hint={t('figures.profitHint')}
        />
        <Stat
          label={t('figures.operations')}
          value={summary.operations}
          hint={t('figures.operationsHint', { closed: summary.closed, open: summary.open })}
        />
        <Stat
          label={t('figures.winRate')}
          value={percent(summary.winRate)}
          hint={t('figures.winRateHint', { wins: summary.wins, losses: summary.losses })}
        />
        <BreakEvenStat summary={summary} />
      </StatGrid>
      <BreakEven summary={summary} />
      <ModelScorecard model={summary.model} />
      <EquityCard points={record.equity} />
      <Card title={t('list.title')} titleId="track-record-operations">
        {rows.length === 0 ? (
          <Notice title={t('empty.title')}>{t('empty.text')}</Notice>
        ) : (
          <>
            <OperationsTable rows={rows} />
            <div className={styles.more}>
              <p className={styles.muted}>
                {t('list.shown', { shown: rows.length, total: summary.operations })}
              </p>
              {more}
            </div>
          </>
        )}
      </Card>
    </>
  );
}
