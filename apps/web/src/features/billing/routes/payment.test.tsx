import { QueryClientProvider } from '@tanstack/react-query';
import type { BillingOverview } from '@tradebot/contract';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { billingQueryKey } from '../../../lib/billing';
import { changeLanguage, loadNamespaces } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';
import PaymentRoute from './payment';

// Decision 148: the money notices send every user to /payment to cancel a renewal, linked or
// not, so /payment offers it while a plan renews (and only then).

function overview(subscription: Partial<BillingOverview['subscription']>): BillingOverview {
  return {
    provider: 'simulated',
    authorized: true,
    subscription: {
      plan: 'yearly',
      status: 'active',
      freeMonth: false,
      startedAt: '2025-12-08T12:00:00.000Z',
      currentPeriodEnd: '2026-12-08T12:00:00.000Z',
      cancelAtPeriodEnd: false,
      nextChargeAt: '2026-12-08T12:00:00.000Z',
      nextChargeCents: 29_000,
      accessUntil: '2026-12-09T12:00:00.000Z',
      retryAt: null,
      endedAt: null,
      ...subscription,
    },
    payments: [],
    refund: { eligible: false, until: null, amountCents: null },
    account: null,
    gift: null,
    portal: true,
    guarantee: { eligible: false, until: null },
    freeMonthUsed: false,
  };
}

const render = () =>
  renderToStaticMarkup(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={['/payment']}>
        <PaymentRoute />
      </MemoryRouter>
    </QueryClientProvider>,
  );

beforeAll(async () => {
  await loadNamespaces(['billing', 'plans']);
});

afterEach(async () => {
  queryClient.clear();
  await changeLanguage('es');
});

describe('/payment for a subscriber', () => {
  it('offers to cancel a yearly plan that renews, in Spanish and in Portuguese', async () => {
    queryClient.setQueryData(billingQueryKey, overview({}));
    await changeLanguage('es');
    expect(render()).toContain('Cancelar la renovación');
    await changeLanguage('pt');
    expect(render()).toContain('Cancelar a renovação');
  });

  it('offers it during the trial the free month carried into a plan', async () => {
    await changeLanguage('es');
    queryClient.setQueryData(billingQueryKey, overview({ status: 'trialing', plan: 'monthly' }));
    expect(render()).toContain('Cancelar la renovación');
  });

  it('does not offer it once the renewal was cancelled', async () => {
    await changeLanguage('es');
    queryClient.setQueryData(
      billingQueryKey,
      overview({ cancelAtPeriodEnd: true, nextChargeAt: null, nextChargeCents: null }),
    );
    const html = render();
    expect(html).toContain('Tu suscripción no se renovará');
    expect(html).not.toContain('Cancelar la renovación');
  });
});

// Issue 39: before paying, the page says the linked account's own currency (a cTrader account
// may be in reais or euros; the built-in platform's is USD) and that the yearly gift is
// simulated money on the built-in platform only (decision 157).
describe('/payment before a purchase', () => {
  const choosing = (account: BillingOverview['account']): BillingOverview => ({
    ...overview({}),
    authorized: false,
    subscription: null,
    account,
  });

  it('names a linked cTrader account’s currency, in Spanish and in Portuguese', async () => {
    queryClient.setQueryData(billingQueryKey, choosing({ kind: 'live', currency: 'BRL' }));
    await changeLanguage('es');
    let html = render();
    expect(html).toContain('Tu cuenta en el bróker opera en BRL');
    expect(html).not.toContain('opera en USD');
    expect(html).toContain('el regalo no llega a ella');
    await changeLanguage('pt');
    html = render();
    expect(html).toContain('Sua conta na corretora opera em BRL');
    expect(html).toContain('o presente não vai para ela');
  });

  it('says USD for the built-in platform’s account and both modes before any link', async () => {
    await changeLanguage('es');
    queryClient.setQueryData(billingQueryKey, choosing({ kind: 'simulated', currency: 'USD' }));
    let html = render();
    expect(html).toContain('Tu cuenta en la plataforma integrada también opera en USD');
    expect(html).not.toContain('el regalo no llega a ella');
    queryClient.setQueryData(billingQueryKey, choosing(null));
    html = render();
    expect(html).toContain('una cuenta de bróker vinculada opera en su propia moneda');
  });

  it('says the yearly gift goes to the built-in platform only, never to a broker', async () => {
    await changeLanguage('es');
    queryClient.setQueryData(billingQueryKey, choosing(null));
    const html = render();
    expect(html).toContain('dinero simulado de la plataforma integrada');
    expect(html).toContain('Nunca se deposita en una cuenta de bróker (cTrader)');
    expect(html).toContain('no en una cuenta de bróker');
  });
});
