import type { PriceSource, TradeRow } from '@tradebot/contract';
import { describe, expect, it } from 'vitest';
import { toCsv } from './csv';
import { historyCsv, historyCsvFileName, type HistoryCsvFormat } from './history-csv';

const sale: TradeRow = {
  Amount: 0.1,
  CloseTime: '2026-11-20T10:05:00.000Z',
  Cmd: 1,
  Icon1: 'EUR',
  Icon2: 'USD',
  OpenTime: '2026-11-20T10:00:00.000Z',
  OutputName: 'EUR/USD',
  Profit: -0.4,
  id: 'p-1',
  symbol: 'EURUSD',
  category: 'forex',
  side: 'sale',
  units: 10_000,
  openPrice: 1.08412,
  closePrice: 1.08437,
  takeProfit: 1.08387,
  stopLoss: 1.08537,
  status: 'closed',
  closeReason: 'sl',
  probability: 0.86,
  breakEvenProbability: 0.833,
  margin: 36.14,
  value: null,
  currency: 'USD',
};

const now = new Date('2026-11-20T12:00:00.000Z');
const lines = (
  rows: TradeRow[],
  format: Omit<HistoryCsvFormat, 'prices'>,
  prices: PriceSource | null = { kind: 'simulator' },
) => historyCsv(rows, { ...format, prices }, now).split('\r\n');

describe('the history CSV for a spreadsheet in es and pt (decision 154)', () => {
  it('writes Spanish headers and words, local times named by zone, `;` and a decimal comma', () => {
    const [header, record, end] = lines([sale], {
      language: 'es',
      timeZone: 'America/Argentina/Buenos_Aires',
    });
    expect(header).toBe(
      '\uFEFFApertura (America/Argentina/Buenos_Aires, GMT-03:00);' +
        'Cierre (America/Argentina/Buenos_Aires, GMT-03:00);Activo;Símbolo;Dirección;Lotes;' +
        'Unidades;Precio de apertura;Precio de cierre;Objetivo de ganancia (TP);' +
        'Límite de pérdida (SL);Motivo del cierre;Resultado;Moneda;Mercado',
    );
    expect(record).toBe(
      '2026-11-20 07:00:00;2026-11-20 07:05:00;EUR/USD;EURUSD;Venta;0,1;10000;1,08412;' +
        '1,08437;1,08387;1,08537;Alcanzó el límite de pérdida;-0,40;USD;' +
        'Simulado por Tradebot (tendencias generadas, no precios reales)',
    );
    expect(end).toBe('');
  });

  it('writes Portuguese words, and every closing reason in words', () => {
    const format = { language: 'pt', timeZone: 'America/Sao_Paulo' } as const;
    const [header, buy] = lines([{ ...sale, side: 'buy', Cmd: 0, closeReason: 'tp' }], format);
    expect(header?.split(';').slice(0, 5)).toEqual([
      '\uFEFFAbertura (America/Sao_Paulo, GMT-03:00)',
      'Fechamento (America/Sao_Paulo, GMT-03:00)',
      'Ativo',
      'Símbolo',
      'Direção',
    ]);
    expect(buy?.split(';')[4]).toBe('Compra');
    expect(buy?.split(';')[11]).toBe('Atingiu o objetivo de ganho');
    const reasons = (['tp', 'sl', 'closeout', 'kill', 'manual'] as const).map(
      (closeReason) => lines([{ ...sale, closeReason }], format)[1]?.split(';')[11],
    );
    expect(new Set(reasons).size).toBe(5);
    expect(reasons.every((reason) => reason && !/^[a-z]+$/.test(reason))).toBe(true);
  });

  it('names UTC plainly when the reader gave no zone', () => {
    const [header, record] = lines([sale], { language: 'es', timeZone: 'UTC' });
    expect(header?.startsWith('\uFEFFApertura (UTC);Cierre (UTC);')).toBe(true);
    expect(record?.startsWith('2026-11-20 10:00:00;2026-11-20 10:05:00;')).toBe(true);
  });

  it('quotes a field that holds the delimiter or a quote, not one that holds a comma', () => {
    const [, quoted] = lines([{ ...sale, OutputName: 'S&P 500; "cash"' }], {
      language: 'es',
      timeZone: 'UTC',
    });
    expect(quoted).toContain(';"S&P 500; ""cash""";EURUSD;');
    const [, plain] = lines([{ ...sale, OutputName: 'Oro, contado' }], {
      language: 'es',
      timeZone: 'UTC',
    });
    expect(plain).toContain(';Oro, contado;EURUSD;');
  });

  it('names the market every result comes from, in the reader’s language', () => {
    const market = (prices: PriceSource, language: 'es' | 'pt' = 'es') =>
      lines([sale], { language, timeZone: 'UTC' }, prices)[1]?.split(';').at(-1);
    expect(
      market({ kind: 'recorded', source: 'OANDA', from: '2014-05-01', to: '2014-05-30' }),
    ).toBe('Cotizaciones reales grabadas (OANDA, 2014-05-01 a 2014-05-30), repetidas en bucle');
    expect(market({ kind: 'broker' }, 'pt')).toBe('Sua conta na corretora (os preços dela)');
  });

  it('names its file in the reader’s language', () => {
    expect(historyCsvFileName('es', 'week')).toBe('operaciones-week.csv');
    expect(historyCsvFileName('pt', 'all')).toBe('operacoes-all.csv');
  });
});

describe('toCsv', () => {
  it('writes CRLF lines under the header, an empty field for null, and money with two decimals', () => {
    expect(
      toCsv(
        ['a', 'b', 'c'],
        [
          ['x', null, 5],
          ['y', 2.5, -3],
        ],
        { moneyColumns: [2] },
      ),
    ).toBe('a,b,c\r\nx,,5.00\r\ny,2.5,-3.00\r\n');
  });

  it('escapes text a spreadsheet would run as a formula, never a negative number', () => {
    expect(toCsv(['k'], [['=HYPERLINK("x")'], ['+1'], ['-2'], ['@SUM(A1)'], [-2]])).toBe(
      'k\r\n"\'=HYPERLINK(""x"")"\r\n\'+1\r\n\'-2\r\n\'@SUM(A1)\r\n-2\r\n',
    );
  });
});
