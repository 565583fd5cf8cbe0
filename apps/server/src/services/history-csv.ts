import type { Language, PriceSource, TradeRow } from '@tradebot/contract';
import { translator } from '../i18n';
import { toCsv, type CsvCell } from './csv';

/** How the history CSV is written for its reader (decision 154). */
export interface HistoryCsvFormat {
  language: Language;
  /** An IANA time zone the runtime knows (the contract's `timeZoneSchema` checked it). */
  timeZone: string;
  /**
   * Where the prices came from (decision 140): every figure names its market. Null when this
   * process runs no robot to ask; the column is then empty.
   */
  prices: PriceSource | null;
}

const columns = [
  'openTime',
  'closeTime',
  'asset',
  'symbol',
  'direction',
  'lots',
  'units',
  'openPrice',
  'closePrice',
  'takeProfit',
  'stopLoss',
  'closeReason',
  'result',
  'currency',
  'market',
] as const;

/**
 * A time as spreadsheets in es and pt read a date and time ("2026-11-20 07:00:00"), in the
 * reader's zone. The Swedish locale is the one whose Intl format is ISO 8601's order.
 */
function localTime(timeZone: string): (iso: string | null) => string | null {
  const format = new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  return (iso) => (iso === null ? null : format.format(new Date(iso)));
}

/**
 * The zone as the time headers name it: "America/Sao_Paulo, GMT-03:00" (its offset now); UTC
 * by its name alone.
 */
function zoneLabel(timeZone: string, now: Date): string {
  if (/^(Etc\/)?(UTC|GMT)$/i.test(timeZone)) return timeZone;
  const offset = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(now)
    .find((part) => part.type === 'timeZoneName')?.value;
  return offset ? `${timeZone}, ${offset}` : timeZone;
}

/**
 * The closed operations as a person's spreadsheet opens them (decision 154, after 075): headers
 * and words in the reader's language, times in their zone named in the headers, `;` between
 * fields and a decimal comma (what Excel and LibreOffice expect in es and pt), a UTF-8 BOM, and
 * the market the prices came from in the last column.
 * The machine-readable copy of the same operations is the data export (decision 153).
 */
export function historyCsv(rows: readonly TradeRow[], format: HistoryCsvFormat, now: Date): string {
  const t = translator(format.language, 'csv');
  const zone = zoneLabel(format.timeZone, now);
  const time = localTime(format.timeZone);
  const header = columns.map((column) => t(`columns.${column}`, { zone }));
  const prices = format.prices;
  const market =
    prices === null
      ? null
      : prices.kind === 'recorded'
        ? t('market.recorded', { source: prices.source, from: prices.from, to: prices.to })
        : t(`market.${prices.kind}`);
  const records = rows.map((row): CsvCell[] => [
    time(row.OpenTime),
    time(row.CloseTime),
    row.OutputName,
    row.symbol,
    t(`direction.${row.side}`),
    row.Amount,
    row.units,
    row.openPrice,
    row.closePrice,
    row.takeProfit,
    row.stopLoss,
    row.closeReason === null ? null : t(`reasons.${row.closeReason}`),
    row.Profit,
    row.currency,
    market,
  ]);
  return toCsv(header, records, {
    moneyColumns: [columns.indexOf('result')],
    delimiter: ';',
    decimalComma: true,
    bom: true,
  });
}

/** The file's name in the reader's language: operaciones-week.csv, operacoes-week.csv. */
export function historyCsvFileName(language: Language, period: string): string {
  return `${translator(language, 'csv')('fileName')}-${period}.csv`;
}
