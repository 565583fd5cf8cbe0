import { QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, loadNamespaces } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';
import { CTraderCard } from './ctrader-card';

/** The cTrader card's states come from the status query (issue 19: no fetch in an effect). */
const key = ['ctrader', 'status'];
const render = () =>
  renderToStaticMarkup(
    <QueryClientProvider client={queryClient}>
      <CTraderCard />
    </QueryClientProvider>,
  );

beforeAll(async () => {
  await loadNamespaces(['linking']);
  await changeLanguage('es');
});

afterEach(() => {
  queryClient.clear();
  queryClient.setQueryDefaults(key, {});
});

describe('cTrader card', () => {
  it('is loading, with no button, until the status is in', () => {
    const html = render();
    expect(html).not.toContain('Conectar con cTrader');
    expect(html).not.toContain('No pudimos consultar');
  });

  it('offers to connect, saying which environment, once configured', () => {
    queryClient.setQueryData(key, { configured: true, environment: 'demo', accounts: [] });
    const html = render();
    expect(html).toContain('Conectar con cTrader');
    expect(html).toContain('cuentas demo de cTrader');
  });

  it('shows the connect button disabled, with the reason, when not configured', () => {
    queryClient.setQueryData(key, { configured: false, environment: 'demo', accounts: [] });
    const html = render();
    expect(html).toContain('todavía no está habilitada');
    expect(html).toMatch(/<button[^>]*disabled/);
  });

  it('says the status could not be read, with a retry, when the query failed', async () => {
    // A card mounted on a failed status fetches again; here it stays as the failure left it.
    queryClient.setQueryDefaults(key, { retryOnMount: false });
    await queryClient
      .query({
        queryKey: key,
        queryFn: () => Promise.reject(new TypeError('offline')),
        retry: false,
      })
      .catch(() => undefined);
    const html = render();
    expect(html).toContain('No pudimos consultar si cTrader está disponible.');
    expect(html).toContain('Reintentar');
  });
});
