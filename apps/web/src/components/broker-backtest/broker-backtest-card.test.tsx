import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { BrokerBacktest, Language } from '@tradebot/contract';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, loadNamespaces } from '../../lib/i18n';
import { BrokerBacktestCard } from './broker-backtest-card';
import { brokerBacktestKey } from './broker-backtest';

/** Issue 36 (decision 144): what the card says of a run, in Spanish and Portuguese. */
const base: BrokerBacktest = {
  state: 'running',
  progress: 42,
  days: 7,
  startedAt: '2026-11-28T09:00:00.000Z',
  finishedAt: null,
  result: null,
  failure: null,
};
const done: BrokerBacktest = {
  ...base,
  state: 'done',
  progress: 100,
  finishedAt: '2026-11-28T09:02:00.000Z',
  result: {
    from: '2026-11-21T09:00:00.000Z',
    to: '2026-11-28T09:00:00.000Z',
    instruments: [
      {
        symbol: 'EURUSD',
        quotes: 290_000,
        first: '2026-11-22T22:00:01.000Z',
        last: '2026-11-27T21:59:00.000Z',
      },
      {
        symbol: 'NZDUSD',
        quotes: 230_000,
        first: '2026-11-22T22:00:03.000Z',
        last: '2026-11-27T21:58:00.000Z',
      },
    ],
    leftOut: ['EURJPY'],
    operations: 3,
    resultUsd: 6.6,
    depositUsd: 10_000,
    noEdgeShare: 0.972,
    marketOpenMinutes: 7000,
  },
};

async function render(language: Language, backtest: BrokerBacktest): Promise<string> {
  await changeLanguage(language);
  await loadNamespaces(['linking']);
  const client = new QueryClient();
  client.setQueryData(brokerBacktestKey, backtest);
  const html = renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <BrokerBacktestCard enabled />
    </QueryClientProvider>,
  );
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/\u00a0|\u202f/g, ' ');
}

describe('BrokerBacktestCard', () => {
  beforeAll(async () => {
    await loadNamespaces(['linking']);
  });

  it('says the sentence with the operations, the result and the no-edge share', async () => {
    expect(await render('es', done)).toContain(
      'En los precios de tu bróker de los últimos 7 días, este robot habría abierto 3 operaciones, con un resultado de +USD 6.60; no encontró ventaja el 97.2% del tiempo.',
    );
    const pt = await render('pt', done);
    expect(pt).toContain(
      'Nos preços da sua corretora dos últimos 7 dias, este robô teria aberto 3 operações, com um resultado de +US$ 6,60; não encontrou vantagem em 97,2% do tempo.',
    );
    expect(pt).toContain('EURUSD, NZDUSD');
    // The days of the quotes the broker gave, not only of the request.
    expect(pt).toContain('de 22 de novembro a 27 de novembro');
    expect(pt).toContain('Não incluímos EURJPY');
    // No operation at all: plural in both languages.
    if (!done.result) throw new Error('the done run carries its result');
    const none = { ...done, result: { ...done.result, operations: 0, resultUsd: 0 } };
    expect(await render('pt', none)).toContain('teria aberto 0 operações');
    expect(await render('es', none)).toContain('habría abierto 0 operaciones');
  });

  it('shows a progress bar while it runs, and why it failed', async () => {
    const running = await render('es', base);
    expect(running).toContain('Avance de la prueba');
    expect(running).toContain('42%');
    const html = renderToStaticMarkup(
      <QueryClientProvider
        client={(() => {
          const client = new QueryClient();
          client.setQueryData(brokerBacktestKey, base);
          return client;
        })()}
      >
        <BrokerBacktestCard enabled />
      </QueryClientProvider>,
    );
    expect(html).toContain('role="progressbar"');
    expect(html).toContain('aria-valuenow="42"');
    expect(
      await render('pt', { ...base, state: 'failed', failure: 'NO_TICKS', progress: 10 }),
    ).toContain('não tem cotações registradas dos seus instrumentos nos últimos 7 dias');
    expect(
      await render('es', { ...base, state: 'failed', failure: 'BROKER_UNAVAILABLE' }),
    ).toContain('No pudimos comunicarnos con tu bróker');
  });
});
