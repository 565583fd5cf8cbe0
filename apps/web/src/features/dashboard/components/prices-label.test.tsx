import type { Language, PriceSource, TradingAccount } from '@tradebot/contract';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, loadNamespaces } from '../../../lib/i18n';
import { AccountSummary } from './account-summary';

/** Decision 140: the dashboard says which market the account's prices come from. */
const account: TradingAccount = {
  balance: 10_000,
  freeMargin: 10_000,
  equity: 10_000,
  earnings: 0,
  deposits: 10_000,
  usedMargin: 0,
  exposure: 0,
  exposureCap: 0.5,
};

async function pricesText(language: Language, prices: PriceSource | null): Promise<string> {
  await changeLanguage(language);
  const html = renderToStaticMarkup(
    <AccountSummary account={account} accountKind="simulated" prices={prices} loading={false} />,
  );
  const match = /data-testid="account-prices">([^<]*)</.exec(html);
  return match?.[1] ?? '';
}

beforeAll(async () => {
  await loadNamespaces(['dashboard']);
});

describe('where the prices come from, under the account', () => {
  it.each([
    ['es', 'Precios: mercado simulado por Tradebot (tendencias generadas, no precios reales).'],
    ['pt', 'Preços: mercado simulado pela Tradebot (tendências geradas, não preços reais).'],
  ] as const)('in %s: the simulator', async (language, text) => {
    expect(await pricesText(language, { kind: 'simulator' })).toBe(text);
  });

  it.each([
    ['es', 'Precios: cotizaciones reales grabadas (OANDA, mayo de 2014), repetidas en bucle.'],
    ['pt', 'Preços: cotações reais gravadas (OANDA, maio de 2014), repetidas em ciclo.'],
  ] as const)('in %s: recorded quotes, their source and month', async (language, text) => {
    const prices: PriceSource = {
      kind: 'recorded',
      source: 'OANDA',
      from: '2014-05-01',
      to: '2014-05-15',
    };
    expect(await pricesText(language, prices)).toBe(text);
  });

  it('gives a recording over several months as a range', async () => {
    const prices: PriceSource = {
      kind: 'recorded',
      source: 'Dukascopy',
      from: '2025-01-06',
      to: '2025-02-07',
    };
    expect(await pricesText('es', prices)).toMatch(/\(Dukascopy, enero.febrero de 2025\)/);
  });

  it.each([
    ['es', 'Precios de tu bróker.'],
    ['pt', 'Preços da sua corretora.'],
  ] as const)("in %s: a linked broker's own", async (language, text) => {
    expect(await pricesText(language, { kind: 'broker' })).toBe(text);
  });

  it('says nothing while it is not known', async () => {
    expect(await pricesText('es', null)).toBe('');
  });
});
