import type { RealQuotesReport, TrackRecord } from '@tradebot/contract';
import { Stat } from '../ui/stat';
import {
  formatDay,
  formatMoney,
  formatPercent,
  formatSignedMoney,
  formatSignedPercent,
  localeOf,
  toneOf,
} from '../../lib/format';
import { useTranslation } from '../../lib/i18n';
import { useNumberLocale } from '../../lib/number-locale';
import styles from './markets-comparison.module.css';

/** Above this share of market-open time in "no edge", the page says the robot barely traded. */
const mostlyIdleShare = 0.8;

/**
 * The same robot on two markets, side by side (issue 36; decision 142): the simulated market
 * the product generates (with its trends said plainly) and real recorded quotes. Both figures
 * come from the server; none is typed into a text.
 */
export function MarketsComparison({
  record,
  headingLevel = 2,
}: {
  record: Pick<TrackRecord, 'running' | 'summary' | 'realQuotes'>;
  headingLevel?: 2 | 3;
}) {
  return (
    <div className={styles.markets} data-markets>
      <SimulatedMarket record={record} headingLevel={headingLevel} />
      <RealQuotes report={record.realQuotes} headingLevel={headingLevel} />
    </div>
  );
}

function Heading({ level, id, children }: { level: 2 | 3; id: string; children: string }) {
  const Tag = level === 2 ? 'h2' : 'h3';
  return (
    <Tag className={styles.title} id={id}>
      {children}
    </Tag>
  );
}

function SimulatedMarket({
  record,
  headingLevel,
}: {
  record: Pick<TrackRecord, 'running' | 'summary'>;
  headingLevel: 2 | 3;
}) {
  const { t, language } = useTranslation('track-record');
  const numberLocale = useNumberLocale(language);
  const { summary } = record;
  return (
    <section className={styles.market} aria-labelledby="market-simulated" data-market="simulated">
      <Heading level={headingLevel} id="market-simulated">
        {t('markets.simulated.title')}
      </Heading>
      <p className={styles.disclosure}>{t('markets.simulated.disclosure')}</p>
      {summary ? (
        <>
          <p className={styles.muted}>
            {t('markets.simulated.since', {
              date: formatDay(language, summary.startedAt),
              start: formatMoney(numberLocale, summary.startingBalance),
            })}
          </p>
          <dl className={styles.figures}>
            <Stat label={t('markets.figures.operations')} value={summary.operations} />
            <Stat
              label={t('markets.figures.result')}
              value={formatSignedMoney(numberLocale, summary.profit)}
              tone={toneOf(summary.profit)}
            />
            <Stat
              label={t('markets.figures.winRate')}
              value={
                summary.winRate === null
                  ? t('figures.none')
                  : formatPercent(numberLocale, summary.winRate)
              }
            />
          </dl>
        </>
      ) : (
        <p className={styles.muted}>
          {record.running ? t('markets.simulated.empty') : t('markets.simulated.notRunning')}
        </p>
      )}
    </section>
  );
}

function RealQuotes({ report, headingLevel }: { report: RealQuotesReport; headingLevel: 2 | 3 }) {
  const { t, language } = useTranslation('track-record');
  const numberLocale = useNumberLocale(language);
  return (
    <section
      className={styles.market}
      aria-labelledby="market-real"
      data-market="real"
      data-status={report.status}
    >
      <Heading level={headingLevel} id="market-real">
        {t('markets.real.title')}
      </Heading>
      {report.status === 'unavailable' && (
        <p className={styles.muted}>{t('markets.real.unavailable')}</p>
      )}
      {report.status === 'computing' && (
        <div role="status" className={styles.computing}>
          <p className={styles.text}>
            {t('markets.real.computing', {
              progress: formatPercent(numberLocale, report.progress),
            })}
          </p>
          <progress
            className={styles.progress}
            max={1}
            value={report.progress}
            aria-label={t('markets.real.progressLabel')}
          />
          <p className={styles.muted}>{t('markets.real.computingHint')}</p>
        </div>
      )}
      {report.status === 'ready' && (
        <>
          <p className={styles.text}>
            {t('markets.real.what', {
              source: report.source,
              instruments: report.instruments.join(', '),
              from: formatDay(language, report.from),
              to: formatDay(language, report.to),
              quotes: new Intl.NumberFormat(localeOf(numberLocale)).format(report.quotes),
            })}
          </p>
          <dl className={styles.figures}>
            <Stat label={t('markets.figures.operations')} value={report.operations} />
            <Stat
              label={t('markets.figures.result')}
              value={formatSignedMoney(numberLocale, report.resultUsd)}
              tone={toneOf(report.resultUsd)}
            />
            <Stat
              label={t('markets.figures.noEdge')}
              value={
                report.noEdgeShare === null
                  ? t('figures.none')
                  : formatPercent(numberLocale, report.noEdgeShare)
              }
              hint={t('markets.figures.noEdgeHint')}
            />
            <Stat
              label={t('markets.figures.skill')}
              value={
                report.brierSkill === null
                  ? t('figures.none')
                  : formatSignedPercent(numberLocale, report.brierSkill)
              }
              hint={t('markets.figures.skillHint')}
            />
          </dl>
          <p className={styles.disclosure}>
            {report.noEdgeShare !== null && report.noEdgeShare >= mostlyIdleShare
              ? t('markets.real.mostlyIdle')
              : t('markets.real.rule')}
          </p>
          <p className={styles.finePrint}>
            {t('markets.real.finePrint', {
              cadence: t(`markets.real.cadence.${report.cadence}`),
              risk: report.risk,
              start: formatMoney(numberLocale, report.startingBalanceUsd),
              computedAt: formatDay(language, report.computedAt),
            })}
          </p>
        </>
      )}
    </section>
  );
}
