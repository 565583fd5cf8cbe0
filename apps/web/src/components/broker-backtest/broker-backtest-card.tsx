import { brokerBacktestDays, type BrokerBacktest } from '@tradebot/contract';
import { ApiRequestError } from '../../lib/api-client';
import { formatMoney, formatPercent, formatSignedMoney } from '../../lib/format';
import { useTranslation } from '../../lib/i18n';
import { useNumberLocale } from '../../lib/number-locale';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { Notice } from '../ui/notice';
import { ProgressBar } from '../ui/progress-bar';
import { Skeleton } from '../ui/skeleton';
import { useBrokerBacktest, useStartBrokerBacktest } from './broker-backtest';
import styles from './broker-backtest.module.css';

/**
 * What the robot would have done on the linked cTrader account's own prices (issue 36, decision
 * 144): a progress bar while the broker's ticks are downloaded and replayed, then one sentence
 * with the operations, the result and the share of market-open time without an edge, the
 * instruments and dates it covers, and a button to run it again. Shown for a linked account
 * (`enabled`) that is a cTrader one (another platform's is answered 409: nothing shown).
 */
export function BrokerBacktestCard({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation('linking');
  const query = useBrokerBacktest(enabled);
  const start = useStartBrokerBacktest();
  // A linked account of another platform (the server says 409): nothing to show.
  const notCTrader = query.error instanceof ApiRequestError && query.error.status === 409;
  if (!enabled || notCTrader) return null;
  const backtest = query.data;
  const running = backtest?.state === 'running';
  const again =
    backtest !== undefined && !running ? (
      <Button
        size="sm"
        color="secondary"
        loading={start.isPending}
        onClick={() => {
          start.mutate();
        }}
      >
        {backtest.state === 'none' ? t('brokerBacktest.start') : t('brokerBacktest.again')}
      </Button>
    ) : undefined;
  return (
    <Card title={t('brokerBacktest.title')} titleId="broker-backtest-title" actions={again}>
      <div className={styles.stack} data-testid="broker-backtest">
        {query.isPending ? (
          <Skeleton height="3rem" />
        ) : query.isError || start.isError ? (
          <Notice tone="error" title={t('brokerBacktest.loadError')}>
            {(start.error ?? query.error)?.message}
          </Notice>
        ) : (
          <BrokerBacktestBody backtest={backtest} />
        )}
      </div>
    </Card>
  );
}

function BrokerBacktestBody({ backtest }: { backtest: BrokerBacktest | undefined }) {
  const { t, language } = useTranslation('linking');
  const locale = useNumberLocale(language);
  if (backtest === undefined || backtest.state === 'none') {
    return (
      <p className={styles.muted}>
        {t('brokerBacktest.none', { days: backtest?.days ?? brokerBacktestDays })}
      </p>
    );
  }
  if (backtest.state === 'running') {
    return (
      <>
        <p className={styles.muted}>{t('brokerBacktest.running', { days: backtest.days })}</p>
        <ProgressBar
          label={t('brokerBacktest.progress')}
          percent={backtest.progress}
          valueText={formatPercent(locale, backtest.progress / 100)}
        />
      </>
    );
  }
  if (backtest.state === 'failed' || backtest.result === null) {
    return (
      <Notice tone={backtest.failure === 'NO_TICKS' ? 'info' : 'error'}>
        {t(`brokerBacktest.failure.${backtest.failure ?? 'FAILED'}`, { days: backtest.days })}
      </Notice>
    );
  }
  const { result } = backtest;
  const day = (iso: string) =>
    new Intl.DateTimeFormat(language, { day: 'numeric', month: 'long', timeZone: 'UTC' }).format(
      new Date(iso),
    );
  return (
    <>
      <p className={styles.sentence} data-testid="broker-backtest-sentence">
        {t('brokerBacktest.sentence', {
          days: backtest.days,
          count: result.operations,
          result: formatSignedMoney(locale, result.resultUsd),
          noEdge: formatPercent(locale, result.noEdgeShare),
        })}
      </p>
      <p className={styles.muted}>
        {t('brokerBacktest.source', {
          instruments: result.instruments.map((i) => i.symbol).join(', '),
          from: day(earliest(result.instruments.map((i) => i.first)) ?? result.from),
          to: day(latest(result.instruments.map((i) => i.last)) ?? result.to),
          deposit: formatMoney(locale, result.depositUsd),
        })}
      </p>
      {result.leftOut.length > 0 ? (
        <p className={styles.muted}>
          {t('brokerBacktest.leftOut', { instruments: result.leftOut.join(', ') })}
        </p>
      ) : null}
      <p className={styles.muted}>{t('brokerBacktest.disclaimer')}</p>
    </>
  );
}

/** The earliest and latest of ISO-8601 UTC times (they sort as text). */
function earliest(times: readonly string[]): string | undefined {
  return [...times].sort().at(0);
}
function latest(times: readonly string[]): string | undefined {
  return [...times].sort().at(-1);
}
