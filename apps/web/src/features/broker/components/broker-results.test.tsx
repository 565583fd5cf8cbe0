import type { Broker, BrokerSearchRequest, Language } from '@tradebot/contract';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { changeLanguage, loadNamespaces } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';
import { brokerSearchQuery } from '../api/search-brokers';
import { BrokerResults } from './broker-results';

/** Step 5 of the broker search (spec §8): the search is the query's, its states the screen's. */
const answers: BrokerSearchRequest = {
  country: 'AR',
  markets: ['cripto'],
  deposit: 500,
  experience: 'none',
};

const broker: Broker = {
  id: 'andes-fx',
  name: 'Andes FX',
  builtIn: false,
  example: true,
  regulators: ['CNV'],
  countries: ['AR'],
  platforms: ['ctrader'],
  minDeposit: 100,
  markets: ['cripto'],
  robotSupported: true,
  website: 'https://andes.example',
};

async function render(language: Language, request: BrokerSearchRequest): Promise<string> {
  await changeLanguage(language);
  return renderToStaticMarkup(<BrokerResults request={request} />);
}

beforeAll(async () => {
  await loadNamespaces(['broker', 'forms']);
});

afterEach(() => {
  queryClient.clear();
  queryClient.setQueryDefaults(['broker-search'], {});
  vi.unstubAllGlobals();
});

describe('broker search results', () => {
  it('posts the answers to broker-search and keeps the answer under those answers', async () => {
    const fetchMock = vi.fn(() =>
      Promise.resolve(new Response(JSON.stringify({ data: { brokers: [broker], matched: 1 } }))),
    );
    vi.stubGlobal('fetch', fetchMock);
    await queryClient.query(brokerSearchQuery(answers));
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/core-api/public/api/v1/broker-search');
    expect(init.method).toBe('POST');
    expect(JSON.parse(init.body as string)).toEqual(answers);
    expect(queryClient.getQueryData(brokerSearchQuery(answers).queryKey)).toEqual({
      brokers: [broker],
      matched: 1,
    });
  });

  it('is loading until the answer to these very answers is in', async () => {
    queryClient.setQueryData(brokerSearchQuery(answers).queryKey, {
      brokers: [broker],
      matched: 1,
    });
    const html = await render('es', { ...answers, deposit: 1000 });
    expect(html).toContain('aria-busy="true"');
    expect(html).not.toContain('Andes FX');
  });

  it('shows the brokers found, in Spanish and Portuguese', async () => {
    queryClient.setQueryData(brokerSearchQuery(answers).queryKey, {
      brokers: [broker],
      matched: 1,
    });
    const es = await render('es', answers);
    expect(es).toContain('aria-busy="false"');
    expect(es).toContain('Encontramos un bróker para ti');
    expect(es).toContain('Andes FX');
    const pt = await render('pt', answers);
    expect(pt).toContain('Encontramos uma corretora para você');
  });

  it('says the search failed, with a retry, in Spanish and Portuguese', async () => {
    await queryClient
      .query({
        ...brokerSearchQuery(answers),
        queryFn: () => Promise.reject(new TypeError('offline')),
        retry: false,
      })
      .catch(() => undefined);
    // As on screen once the search has failed: a new mount would search again (and load).
    queryClient.setQueryDefaults(['broker-search'], { retryOnMount: false });
    const es = await render('es', answers);
    expect(es).toContain('Lo sentimos, hubo un error en la búsqueda');
    expect(es).toContain('Reintentar');
    expect(es).not.toContain('Andes FX');
    const pt = await render('pt', answers);
    expect(pt).toContain('Desculpe, ocorreu um erro na busca');
    expect(pt).toContain('Tentar novamente');
  });
});
