import { describe, expect, it } from 'vitest';
import type { OutboxRow } from '../repositories/notifications.repository';
import {
  notificationMail,
  type DaySummary,
  type MarginNotice,
  type OperationNotice,
} from './notification-mail-templates';

/** E-mails write a broker account's amounts in its own currency (decision 097). */
const links = {
  dashboard: 'https://tradebot.test/dashboard',
  settings: 'https://tradebot.test/s',
  payment: 'https://tradebot.test/payment',
};
const plain = (text: string) => text.replace(/\s/g, ' ');
/** An e-mail's text part, its white space as single spaces. */
const textOf = async (...args: Parameters<typeof notificationMail>) =>
  plain((await notificationMail(...args)).text);

function row(kind: OutboxRow['kind'], payload: object): OutboxRow {
  return {
    id: '1',
    userId: 'u',
    kind,
    payload: payload as Record<string, unknown>,
    createdAt: new Date('2026-11-26T12:00:00Z'),
  };
}

const closed: OperationNotice = {
  id: 'ct4400202-1002',
  name: 'EUR/USD',
  side: 'buy',
  lots: 1.84,
  openPrice: 1.08512,
  closePrice: 1.08522,
  profit: 92.02,
  closeReason: 'tp',
  currency: 'BRL',
};

describe('notification e-mails in the account currency', () => {
  it('writes an operation result in reais, in Spanish and in Portuguese', async () => {
    const es = await textOf(
      'es',
      'a@b.test',
      'Ana',
      [row('operation_closed', closed)],
      links,
      'demo',
    );
    const pt = await textOf(
      'pt',
      'a@b.test',
      'Ana',
      [row('operation_closed', closed)],
      links,
      'demo',
    );
    expect(es).toContain('+BRL 92,02');
    expect(pt).toContain('+BRL 92,02');
    expect(`${es}${pt}`).not.toContain('USD 92');
  });

  it('writes margin warnings and day summaries in reais', async () => {
    const margin: MarginNotice = {
      equity: 12_000,
      usedMargin: 9_985.1,
      freeMargin: 2_014.9,
      marginLevel: 120,
      currency: 'BRL',
    };
    const day: DaySummary = {
      date: '2026-11-26',
      closed: 1,
      won: 1,
      lost: 0,
      profit: 92.02,
      balance: 20_092.02,
      equity: 20_092.02,
      open: 0,
      currency: 'BRL',
    };
    const warning = await textOf(
      'pt',
      'a@b.test',
      'Ana',
      [row('margin_warning', margin)],
      links,
      'demo',
    );
    expect(warning).toContain('BRL 9.985,10');
    const summary = await textOf(
      'es',
      'a@b.test',
      'Ana',
      [row('daily_summary', day)],
      links,
      'demo',
    );
    expect(summary).toContain('BRL 20.092,02');
    expect(summary).toContain('+BRL 92,02');
  });

  it('reads a notice recorded before currencies as dollars', async () => {
    const { currency: _dropped, ...before } = closed;
    const text = await textOf(
      'es',
      'a@b.test',
      'Ana',
      [row('operation_closed', before)],
      links,
      'demo',
    );
    expect(text).toContain('+USD 92,02');
  });
});

describe('what an e-mail says its figures are', () => {
  const mail = (language: 'es' | 'pt', kind: 'simulated' | 'demo' | 'live') =>
    textOf(language, 'a@b.test', 'Ana', [row('operation_closed', closed)], links, kind);

  it('says simulated money only for the built-in platform, and real money for a live account', async () => {
    expect(await mail('es', 'simulated')).toContain('plataforma simulada de Tradebot');
    expect(await mail('pt', 'simulated')).toContain('plataforma simulada do Tradebot');
    for (const language of ['es', 'pt'] as const) {
      expect(await mail(language, 'demo')).not.toContain('plataforma simulada');
      expect(await mail(language, 'live')).not.toContain('simulad');
    }
    expect(await mail('es', 'demo')).toContain('cuenta demo en tu bróker cTrader');
    expect(await mail('pt', 'demo')).toContain('conta demo na sua corretora cTrader');
    expect(await mail('es', 'live')).toContain('opera con tu dinero y puedes perderlo');
    expect(await mail('pt', 'live')).toContain('opera com o seu dinheiro e você pode perdê-lo');
  });
});
