import {
  orderRejectionReasons,
  type Language,
  type OrderRejection,
  type UntradableSymbolsView,
} from '@tradebot/contract';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, i18n, loadNamespaces } from '../../../lib/i18n';
import {
  OrderRejectionsList,
  rejectionText,
  type OrderRejectionsListProps,
} from './order-rejections';
import { UntradableSymbolsList } from './untradable-symbols';

/**
 * Refused orders with their reason in plain words, and a broker account's instruments the robot
 * does not trade (decision 101), in Spanish and Portuguese.
 */
const refusal = (patch: Partial<OrderRejection>): OrderRejection => ({
  id: 'u/BTCUSD/1',
  at: '2026-11-26T10:00:00.000Z',
  symbol: 'BTCUSD',
  OutputName: 'Bitcoin',
  category: 'cripto',
  side: 'buy',
  units: 0.25,
  reason: 'MARKET_CLOSED',
  brokerCode: null,
  ...patch,
});

const list: OrderRejection[] = [
  refusal({ id: 'a', reason: 'MARKET_CLOSED', brokerCode: 'SYMBOL_HAS_HOLIDAY' }),
  refusal({ id: 'b', reason: 'INSUFFICIENT_MARGIN', side: 'sale', OutputName: 'EUR/USD' }),
  refusal({ id: 'c', reason: 'BROKER_REJECTED', brokerCode: 'POSITION_LOCKED' }),
];

const props = (patch: Partial<OrderRejectionsListProps> = {}): OrderRejectionsListProps => ({
  rejections: list,
  loading: false,
  failed: false,
  onRetry: () => undefined,
  hasMore: false,
  loadingMore: false,
  loadMoreFailed: false,
  onLoadMore: () => undefined,
  ...patch,
});

async function render(language: Language, element: React.ReactElement): Promise<string> {
  await changeLanguage(language);
  return renderToStaticMarkup(element);
}

beforeAll(async () => {
  await loadNamespaces(['dashboard']);
});

describe('refused orders', () => {
  it('lists each with its instrument, side and reason in Spanish, a holiday apart from a closed market', async () => {
    const html = await render('es', <OrderRejectionsList {...props({ hasMore: true })} />);
    expect(html).toContain('Órdenes rechazadas');
    expect(html).toContain('Bitcoin');
    expect(html).toContain('El mercado estaba cerrado por feriado.');
    expect(html).toContain('Venta');
    expect(html).toContain('No había margen suficiente en la cuenta.');
    expect(html).toContain('El bróker rechazó la orden (código del bróker: POSITION_LOCKED).');
    expect(html).toMatch(/datetime="2026-11-26T10:00:00.000Z"/i);
    expect(html).toContain('Ver más');
  });

  it('says the same in Portuguese', async () => {
    const html = await render('pt', <OrderRejectionsList {...props()} />);
    expect(html).toContain('Ordens recusadas');
    expect(html).toContain('O mercado estava fechado por feriado.');
    expect(html).toContain('Não havia margem suficiente na conta.');
    expect(html).toContain('A corretora recusou a ordem (código da corretora: POSITION_LOCKED).');
    expect(html).not.toContain('Ver mais');
  });

  it('has a sentence for every reason in both languages, and the broker closed its market in words', async () => {
    for (const language of ['es', 'pt'] as const) {
      await changeLanguage(language);
      const t = i18n.getFixedT(language, 'dashboard');
      for (const reason of orderRejectionReasons) {
        const text = rejectionText(t, { reason, brokerCode: null });
        expect(text, `${language} ${reason}`).not.toMatch(/rejections\.|[A-Z]{3,}_/);
      }
      expect(rejectionText(t, { reason: 'MARKET_CLOSED', brokerCode: 'MARKET_CLOSED' })).toBe(
        rejectionText(t, { reason: 'MARKET_CLOSED', brokerCode: null }),
      );
    }
  });

  it('shows loading, empty and error states', async () => {
    expect(await render('es', <OrderRejectionsList {...props({ loading: true })} />)).toContain(
      'aria-busy="true"',
    );
    expect(await render('pt', <OrderRejectionsList {...props({ rejections: [] })} />)).toContain(
      'Nenhuma ordem recusada.',
    );
    const failed = await render(
      'es',
      <OrderRejectionsList {...props({ rejections: [], failed: true })} />,
    );
    expect(failed).toContain('No pudimos cargar las órdenes rechazadas.');
    expect(failed).toContain('role="alert"');
    expect(failed).toContain('Reintentar');
  });
});

describe("a broker account's instruments the robot does not trade", () => {
  const view: UntradableSymbolsView = {
    applicable: true,
    symbols: {
      unmapped: ['ZZZ/QQQ', 'AAPL.US'],
      unconvertible: ['XAUEUR'],
      readAt: '2026-11-26T10:00:00.000Z',
    },
  };

  it('opens onto each list with why, in Spanish and Portuguese', async () => {
    const es = await render('es', <UntradableSymbolsList view={view} />);
    expect(es).toContain('<details');
    expect(es).toContain('<summary>3 instrumentos de tu cuenta que el robot no opera, y por qué');
    expect(es).toContain('ZZZ/QQQ');
    expect(es).toContain('XAUEUR');
    expect(es).toContain('moneda de tu cuenta');
    const pt = await render('pt', <UntradableSymbolsList view={view} />);
    expect(pt).toContain('3 instrumentos da sua conta que o robô não opera, e por quê');
    expect(pt).toContain('moeda da sua conta');
  });

  it('says nothing on the simulated platform, before the robot read them, or when all trade', async () => {
    expect(
      await render('es', <UntradableSymbolsList view={{ applicable: false, symbols: null }} />),
    ).toBe('');
    expect(
      await render('es', <UntradableSymbolsList view={{ applicable: true, symbols: null }} />),
    ).toBe('');
    const none = { ...view, symbols: { unmapped: [], unconvertible: [], readAt: '' } };
    expect(await render('pt', <UntradableSymbolsList view={none} />)).toBe('');
  });
});
