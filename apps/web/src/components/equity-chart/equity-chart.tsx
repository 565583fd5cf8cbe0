import type { EquityPoint } from '@tradebot/contract';
import { AreaSeries, createChart, type UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import { formatMoney, localeOf } from '../../lib/format';
import { useTranslation } from '../../lib/i18n';
import type { NumberLocale } from '../../lib/number-locale';
import { chartPoints } from './equity-points';
import styles from './equity-chart.module.css';

/**
 * Where the attribution the library's licence asks for (its NOTICE: a link to TradingView on
 * the page) points. The library's own logo link is turned off: its name is English and its
 * address carries this page's path (issue 39).
 */
const attributionUrl = 'https://www.tradingview.com/';

/**
 * Reads a design token, so the canvas follows the palette (tokens.css is loaded with the app,
 * before anything renders; a token missing is a bug, said as such).
 */
function token(name: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  if (!value) throw new Error(`design token ${name} is not defined`);
  return value;
}

/**
 * The canvas itself, and under it the chart library's attribution as a text link named in
 * the page's language; the figure's caption says what the chart shows.
 */
export default function EquityChart({
  points,
  locale,
  currency = 'USD',
}: {
  points: readonly EquityPoint[];
  /** Numbers' locale: the language and the reader's country (decision 089). */
  locale: NumberLocale;
  /** The amounts' currency, ISO 4217 (decision 097); null writes bare numbers. */
  currency?: string | null;
}) {
  const { t } = useTranslation();
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const primary = token('--color-primary');
    const chart = createChart(element, {
      autoSize: true,
      layout: {
        background: { color: 'transparent' },
        textColor: token('--color-muted'),
        attributionLogo: false,
      },
      grid: {
        vertLines: { visible: false },
        horzLines: { color: token('--color-neutral-soft') },
      },
      rightPriceScale: { borderVisible: false },
      timeScale: {
        borderVisible: false,
        timeVisible: true,
        fixLeftEdge: true,
        fixRightEdge: true,
      },
      handleScroll: false,
      handleScale: false,
      localization: {
        locale: localeOf(locale),
        priceFormatter: (price: number) => formatMoney(locale, price, currency),
      },
    });
    const series = chart.addSeries(AreaSeries, {
      lineColor: primary,
      topColor: `${primary}55`,
      bottomColor: `${primary}05`,
      lineWidth: 2,
      priceLineVisible: false,
    });
    series.setData(
      chartPoints(points).map((point) => ({
        time: point.time as UTCTimestamp,
        value: point.value,
      })),
    );
    // autoSize measures the box on the next frame; fit once it knows its width.
    const frame = requestAnimationFrame(() => {
      chart.timeScale().fitContent();
    });
    return () => {
      cancelAnimationFrame(frame);
      chart.remove();
    };
  }, [points, locale, currency]);

  return (
    <>
      <div ref={container} style={{ height: '12rem' }} />
      <p className={styles.attribution}>
        <a href={attributionUrl} target="_blank" rel="noopener noreferrer">
          {t('chart.attribution')}
        </a>
      </p>
    </>
  );
}
