import type { Language, TradeRow } from '@tradebot/contract';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, loadNamespaces } from '../../../lib/i18n';
import { tradeRow } from '../../../test/trade-row';
import { AccountCurrency } from '../account-currency';
import { OperationRow } from './operation-row';

/**
 * The closed history writes each operation in its own currency (decision 103): a former cTrader
 * link's in reais beside the built-in platform's in dollars, whatever the account's currency now;
 * an operation whose currency is not known shows the bare number and says so.
 */
const row = (id: string, currency: string | null): TradeRow =>
  tradeRow({ id, Profit: 12.5, margin: 40, currency });

// Intl may separate a currency symbol from its number with a no-break space.
const plain = (html: string) => html.replace(/\s/g, ' ');

async function render(language: Language, operation: TradeRow): Promise<string> {
  await changeLanguage(language);
  return plain(
    renderToStaticMarkup(
      // The account is on the built-in platform now: USD.
      <AccountCurrency value="USD">
        <OperationRow row={operation} kind="closed" onSelect={() => undefined} />
      </AccountCurrency>,
    ),
  );
}

beforeAll(async () => {
  await loadNamespaces(['dashboard']);
});

describe('an operation row in its own currency', () => {
  it('writes a former link’s operation in reais while the account is in dollars', async () => {
    const pt = await render('pt', row('ct4400101-7', 'BRL'));
    expect(pt).toContain('+R$ 12,50');
    expect(pt).toContain('R$ 40,00');
    expect(pt).not.toMatch(/US\$ ?\d|USD ?\d/);
    const es = await render('es', row('ct4400101-7', 'BRL'));
    expect(es).toMatch(/\+(BRL|R\$) 12[.,]50/);
    expect(es).not.toMatch(/US\$ ?\d|USD ?\d/);
  });

  it('writes the built-in platform’s operation in dollars', async () => {
    expect(await render('pt', row('P-1', 'USD'))).toMatch(/\+US\$ 12,50/);
    expect(await render('es', row('P-1', 'USD'))).toMatch(/\+(US\$|USD) 12[.,]50/);
  });

  it('shows an unknown currency as the bare number with a hint, never a symbol', async () => {
    const es = await render('es', row('ct4400101-8', null));
    expect(es).toMatch(/>\+12[.,]50 <span[^>]*>\(moneda desconocida\)</);
    expect(es).not.toMatch(/US\$ ?\d|USD ?\d|R\$ ?\d/);
    const pt = await render('pt', row('ct4400101-8', null));
    expect(pt).toMatch(/>\+12,50 <span[^>]*>\(moeda desconhecida\)</);
    expect(pt).not.toMatch(/US\$ ?\d|USD ?\d|R\$ ?\d/);
  });
});
