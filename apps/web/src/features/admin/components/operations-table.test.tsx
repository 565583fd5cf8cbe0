import type { Language, TradeRow } from '@tradebot/contract';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, loadNamespaces } from '../../../lib/i18n';
import { OperationsTable } from './operations-table';

/** The console's operations table shows each profit in its operation's currency (decision 097). */
const row = (currency: string | null): TradeRow => ({
  Amount: 0.11,
  CloseTime: '2026-11-26T10:05:00.000Z',
  Cmd: 0,
  Icon1: 'eu',
  Icon2: 'us',
  OpenTime: '2026-11-26T10:00:00.000Z',
  OutputName: 'EUR/USD',
  Profit: 12.5,
  id: `p-${String(currency)}`,
  symbol: 'EURUSD',
  category: 'forex',
  side: 'buy',
  units: 11_000,
  openPrice: 1.0851,
  closePrice: 1.0852,
  takeProfit: 1.0852,
  stopLoss: 1.0846,
  status: 'closed',
  closeReason: 'tp',
  probability: 0.95,
  breakEvenProbability: 0.9,
  margin: 0,
  value: null,
  currency,
});

// Intl may separate a currency symbol from its number with a no-break space.
const plain = (html: string) => html.replace(/\s/g, ' ');

async function render(language: Language, rows: TradeRow[]): Promise<string> {
  await changeLanguage(language);
  return plain(renderToStaticMarkup(<OperationsTable caption="Ops" rows={rows} empty="-" />));
}

beforeAll(async () => {
  await loadNamespaces(['admin']);
});

describe('OperationsTable', () => {
  it('writes a broker account’s profit in its own currency, never as dollars', async () => {
    const pt = await render('pt', [row('BRL')]);
    expect(pt).toContain('+R$ 12,50');
    expect(pt).not.toMatch(/US\$ ?\d|USD ?\d/);
    const es = await render('es', [row('BRL')]);
    expect(es).toMatch(/\+BRL 12[.,]50|\+R\$ 12[.,]50/);
  });

  it('keeps dollars for the built-in platform and a bare signed number where the currency is gone, and says so', async () => {
    const html = await render('es', [row('USD'), row(null)]);
    expect(html).toMatch(/\+US\$ 12[.,]50|\+USD 12[.,]50/);
    expect(html).toMatch(/>\+12[.,]50 <span[^>]*>\(moneda desconocida\)</);
  });
});
