import type { TradeRow } from '@tradebot/contract';
import { describe, expect, it } from 'vitest';
import { toCsv } from './csv';
import { historyCsvRecord } from './trading.service';

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
  currency: 'USD',
};

/** The record as the history CSV writes it: its line under a header. */
const line = (row: TradeRow) =>
  toCsv(['h'], [historyCsvRecord(row)], { moneyColumns: [12] }).split('\r\n')[1];

describe('a line of the history CSV (decision 075)', () => {
  it('names the direction in English like its field names: buy or sell', () => {
    expect(line(sale)).toBe(
      '2026-11-20T10:00:00.000Z,2026-11-20T10:05:00.000Z,EUR/USD,EURUSD,sell,0.1,10000,1.08412,1.08437,1.08387,1.08537,sl,-0.40,USD',
    );
    expect(line({ ...sale, side: 'buy', Cmd: 0 })?.split(',')[4]).toBe('buy');
  });

  it('quotes a field that holds a comma or a quote', () => {
    expect(line({ ...sale, OutputName: 'S&P 500, "cash"' })).toContain(
      ',"S&P 500, ""cash""",EURUSD,',
    );
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
