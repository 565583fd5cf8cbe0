import type { Language, TradeRow, TradingAccount } from '@tradebot/contract';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, loadNamespaces } from '../../../lib/i18n';
import { AccountCurrency } from '../account-currency';
import { AccountSummary } from './account-summary';
import { OperationRow } from './operation-row';

/**
 * The dashboard writes a broker account's amounts in the account's own currency (decision 097):
 * a live account in reais shows "R$", never dollars, in Spanish and in Portuguese.
 */
const account: TradingAccount = {
  balance: 20_000,
  freeMargin: 10_014.9,
  equity: 20_073.61,
  earnings: 73.61,
  deposits: 20_000,
  usedMargin: 9_985.1,
  exposure: 0.497,
  exposureCap: 0.5,
};

const row: TradeRow = {
  Amount: 1.84,
  CloseTime: null,
  Cmd: 0,
  Icon1: 'eu',
  Icon2: 'us',
  OpenTime: '2026-11-26T10:00:00.000Z',
  OutputName: 'EUR/USD',
  Profit: 73.61,
  id: 'ct4400202-1002',
  symbol: 'EURUSD',
  category: 'forex',
  side: 'buy',
  units: 184_000,
  openPrice: 1.08512,
  closePrice: null,
  takeProfit: 1.08522,
  stopLoss: 1.08452,
  status: 'open',
  closeReason: null,
  probability: 0.95,
  breakEvenProbability: 0.9,
  margin: 9_985.1,
  value: null,
  currency: 'BRL',
};

// An amount in dollars (the pair's name, EUR/USD, is not one).
const dollars = /US\$ ?\d|USD \d/;

// Intl may separate a currency symbol from its number with a no-break space.
const plain = (html: string) => html.replace(/\s/g, ' ');

async function render(
  language: Language,
  currency: string | null,
  rowCurrency = currency,
): Promise<string> {
  await changeLanguage(language);
  return plain(
    renderToStaticMarkup(
      <AccountCurrency value={currency}>
        <AccountSummary account={account} accountKind="live" loading={false} />
        <OperationRow
          row={{ ...row, currency: rowCurrency }}
          kind="open"
          onSelect={() => undefined}
        />
      </AccountCurrency>,
    ),
  );
}

beforeAll(async () => {
  await loadNamespaces(['dashboard']);
});

describe('the dashboard in the account currency', () => {
  it('writes a BRL account in reais in Spanish', async () => {
    const html = await render('es', 'BRL');
    expect(html).toContain('BRL 20,000.00'); // balance
    expect(html).toContain('BRL 20,073.61'); // equity
    expect(html).toContain('+BRL 73.61'); // earnings and the operation's profit
    expect(html).toContain('BRL 9,985.10'); // the operation's margin
    expect(html).not.toMatch(dollars);
  });

  it('writes a BRL account in reais in Portuguese', async () => {
    const html = await render('pt', 'BRL');
    expect(html).toContain('R$ 20.000,00');
    expect(html).toContain('R$ 20.073,61');
    expect(html).toContain('+R$ 73,61');
    expect(html).toContain('R$ 9.985,10');
    expect(html).not.toMatch(dollars);
  });

  it('keeps an operation in its own currency: one from the simulated platform stays in dollars', async () => {
    const html = await render('pt', 'BRL', 'USD');
    expect(html).toContain('R$ 20.000,00'); // the account
    expect(html).toContain('+US$ 73,61'); // the simulated operation
    expect(html).toContain('US$ 9.985,10');
  });

  it('keeps dollars on the simulated platform, and bare numbers while the currency is unknown', async () => {
    expect(await render('pt', 'USD')).toContain('US$ 20.000,00');
    const unknown = await render('es', null);
    expect(unknown).toContain('20,000.00');
    expect(unknown).not.toMatch(dollars);
    expect(unknown).not.toMatch(/R\$|BRL \d/);
  });
});
