import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type { HistoryPeriod, TradeRow } from '@tradebot/contract';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Page } from '../../../components/ui/page';
import { Tabs } from '../../../components/ui/tabs';
import { useTranslation } from '../../../lib/i18n';
import { useMediaQuery } from '../../../lib/use-media-query';
import { useAuthStore } from '../../../stores/auth';
import type { LiveTrading } from '../../../lib/live-trading';
import { AccountCurrency } from '../account-currency';
import { useLiveTradingData } from '../api/get-all-data';
import { useRobotStatusRefresh } from '../api/get-robot-status';
import { closedHistoryKey, useClosedHistory } from '../api/get-closed-history';
import { equityCurveKey } from '../api/get-equity-curve';
import { AccountSummary } from '../components/account-summary';
import { HistorySection } from '../components/history-section';
import { LiveDataError } from '../components/live-data-error';
import { OpenOperations } from '../components/open-operations';
import { OperationDetail } from '../components/operation-detail';
import { OrderRejections } from '../components/order-rejections';
import { RobotState } from '../components/robot-state';
import { StopEverything } from '../components/stop-everything';
import { BrokerBacktestCard } from '../../../components/broker-backtest/broker-backtest-card';
import { SwitchOnStep } from '../components/switch-on-step';
import { UntradableSymbols } from '../components/untradable-symbols';
import { flattenPages, newlyClosed, prependClosed, type HistoryPage } from '../history-pages';

/**
 * When an event brings closed operations the loaded history lacks: a history of one page is
 * fetched again (one request, exact totals); a longer one gets the rows on top, so the reader
 * keeps their place and the server is not asked for every page again.
 */
function useHistoryFollowsClosedEvents(period: HistoryPeriod, live: LiveTrading | undefined) {
  const queryClient = useQueryClient();
  const closedRevision = live?.closedRevision ?? 0;
  const closed = live?.closed;
  const seen = useRef(closedRevision);
  useEffect(() => {
    if (closedRevision === seen.current) return;
    seen.current = closedRevision;
    const key = closedHistoryKey(period);
    const data = queryClient.getQueryData<InfiniteData<HistoryPage, string | undefined>>(key);
    // Other periods are fetched again when shown.
    void queryClient.invalidateQueries({ queryKey: closedHistoryKey(), refetchType: 'none' });
    if (!data) return;
    const added = newlyClosed(data.pages, closed ?? [], period, Date.now());
    if (added.length === 0) return;
    if (data.pages.length <= 1) {
      void queryClient.invalidateQueries({ queryKey: key });
    } else {
      queryClient.setQueryData(key, prependClosed(data, added));
    }
    void queryClient.invalidateQueries({ queryKey: equityCurveKey() });
  }, [closedRevision, closed, period, queryClient]);
}

type DashboardView = 'open' | 'closed' | 'chart';

const noTrades: TradeRow[] = [];

/** spec §2 Dashboard: the account, the robot's state, open and closed operations, history. */
export default function DashboardRoute() {
  const { t } = useTranslation('dashboard');
  const live = useLiveTradingData();
  const account = live.data?.account ?? null;
  const trades = live.data?.trades ?? noTrades;
  const robot = live.data?.robot ?? null;
  // What the robot does per category stays current while the page is open (decision 147).
  const robotRefresh = useRobotStatusRefresh(robot);
  // spec §3: the first load lasts until data arrives, from this call or a real-time event.
  const isFirstLoad = live.data === undefined;
  // Access ended (refunded, past due): the page is read-only, with the kill switch (decision 063).
  const accessEnded = useAuthStore((state) => state.userConfig?.authorized === false);
  const botOnSaved = useAuthStore((state) => state.userConfig?.settings.bot_on === true);
  const [period, setPeriod] = useState<HistoryPeriod>('all');
  const [selectedId, setSelectedId] = useState<string | null>(null);
  // A phone shows open operations, closed ones and the curve as tabs under the account, so
  // the history is one tap away instead of screens down (the layouts switch at 900 px).
  const phone = useMediaQuery('(max-width: 899px)');
  const [view, setView] = useState<DashboardView>('open');
  // The same query the history section shows (one cache entry): the detail finds its row here.
  const history = useClosedHistory(period);
  const historyRows = useMemo(() => flattenPages(history.data?.pages ?? []), [history.data]);
  useHistoryFollowsClosedEvents(period, live.data);

  const loading = isFirstLoad && live.isPending;
  const historySection = (show: 'all' | 'list' | 'chart') => (
    <HistorySection
      period={period}
      onPeriodChange={setPeriod}
      onSelect={setSelectedId}
      show={show}
    />
  );
  const selected =
    selectedId === null
      ? undefined
      : (trades.find((row) => row.id === selectedId) ??
        historyRows.find((row) => row.id === selectedId));

  return (
    // Every amount below is in the account's currency (decision 097).
    <AccountCurrency value={live.data?.accountCurrency ?? null}>
      <Page title={t('title')} intro={t('intro')} width="wide">
        {live.isError && isFirstLoad ? (
          <LiveDataError
            error={live.error}
            retrying={live.isFetching}
            onRetry={() => void live.refetch()}
          />
        ) : (
          <>
            <StopEverything
              accessEnded={accessEnded}
              open={trades.length}
              robotOn={robot?.bot_on ?? botOnSaved}
            />
            <SwitchOnStep
              robot={robot}
              neverTraded={trades.length === 0 && history.isSuccess && historyRows.length === 0}
            />
            <RobotState robot={robot} stale={robotRefresh.isError} />
            <AccountSummary
              account={account}
              accountKind={live.data?.accountKind ?? null}
              prices={live.data?.prices ?? null}
              loading={loading}
              footer={
                <UntradableSymbols
                  linkedBroker={live.data !== undefined && live.data.accountKind !== 'simulated'}
                />
              }
            />
            <BrokerBacktestCard
              enabled={live.data !== undefined && live.data.accountKind !== 'simulated'}
            />
            {!phone && (
              <OpenOperations trades={trades} loading={loading} onSelect={setSelectedId} />
            )}
          </>
        )}
        {phone ? (
          <Tabs
            label={t('views.label')}
            value={view}
            onValueChange={setView}
            items={[
              {
                value: 'open',
                label: t('views.open'),
                content:
                  live.isError && isFirstLoad ? null : (
                    <OpenOperations trades={trades} loading={loading} onSelect={setSelectedId} />
                  ),
              },
              { value: 'closed', label: t('views.closed'), content: historySection('list') },
              { value: 'chart', label: t('views.chart'), content: historySection('chart') },
            ]}
          />
        ) : (
          historySection('all')
        )}
        {/* Refused orders and why, on every platform (decision 101). */}
        <OrderRejections />
        <OperationDetail
          row={selected}
          onClose={() => {
            setSelectedId(null);
          }}
        />
      </Page>
    </AccountCurrency>
  );
}
