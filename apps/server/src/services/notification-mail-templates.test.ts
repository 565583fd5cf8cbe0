import { describe, expect, it } from 'vitest';
import type { OutboxRow } from '../repositories/notifications.repository';
import {
  notificationMail,
  type DaySummary,
  type MarginNotice,
  type OperationNotice,
} from './notification-mail-templates';

/** E-mails write a broker account's amounts in its own currency (decision 097). */
const links = { dashboard: 'https://tradebot.test/dashboard', settings: 'https://tradebot.test/s' };
const plain = (text: string) => text.replace(/\s/g, ' ');

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
  it('writes an operation result in reais, in Spanish and in Portuguese', () => {
    const es = plain(
      notificationMail('es', 'a@b.test', 'Ana', [row('operation_closed', closed)], links, 'demo')
        .text,
    );
    const pt = plain(
      notificationMail('pt', 'a@b.test', 'Ana', [row('operation_closed', closed)], links, 'demo')
        .text,
    );
    expect(es).toContain('+BRL 92,02');
    expect(pt).toContain('+BRL 92,02');
    expect(`${es}${pt}`).not.toContain('USD 92');
  });

  it('writes margin warnings and day summaries in reais', () => {
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
    const warning = plain(
      notificationMail('pt', 'a@b.test', 'Ana', [row('margin_warning', margin)], links, 'demo')
        .text,
    );
    expect(warning).toContain('BRL 9.985,10');
    const summary = plain(
      notificationMail('es', 'a@b.test', 'Ana', [row('daily_summary', day)], links, 'demo').text,
    );
    expect(summary).toContain('BRL 20.092,02');
    expect(summary).toContain('+BRL 92,02');
  });

  it('reads a notice recorded before currencies as dollars', () => {
    const { currency: _dropped, ...before } = closed;
    const text = plain(
      notificationMail('es', 'a@b.test', 'Ana', [row('operation_closed', before)], links, 'demo')
        .text,
    );
    expect(text).toContain('+USD 92,02');
  });
});

describe('what an e-mail says its figures are', () => {
  const mail = (language: 'es' | 'pt', kind: 'simulated' | 'demo' | 'live') =>
    plain(
      notificationMail(language, 'a@b.test', 'Ana', [row('operation_closed', closed)], links, kind)
        .text,
    );

  it('says simulated money only for the built-in platform, and real money for a live account', () => {
    expect(mail('es', 'simulated')).toContain('plataforma simulada de Tradebot');
    expect(mail('pt', 'simulated')).toContain('plataforma simulada do Tradebot');
    for (const language of ['es', 'pt'] as const) {
      expect(mail(language, 'demo')).not.toContain('plataforma simulada');
      expect(mail(language, 'live')).not.toContain('simulad');
    }
    expect(mail('es', 'demo')).toContain('cuenta demo en tu bróker cTrader');
    expect(mail('pt', 'demo')).toContain('conta demo na sua corretora cTrader');
    expect(mail('es', 'live')).toContain('opera con tu dinero y puedes perderlo');
    expect(mail('pt', 'live')).toContain('opera com o seu dinheiro e você pode perdê-lo');
  });
});
