import { describe, expect, it } from 'vitest';
import { moneyNoticeMail } from './money-notice-mail-templates';
import { notificationPush } from './notification-mail-templates';
import type { MoneyNoticeFacts } from '../domain/money-notices';
import type { OutboxRow } from '../repositories/notifications.repository';

// Decision 148: the money notices in Spanish and in Portuguese, as their text part reads.

const paymentUrl = 'https://tradebot.test/payment';
const plain = (text: string) => text.replace(/\s+/g, ' ');
const textOf = async (language: 'es' | 'pt', facts: MoneyNoticeFacts) => {
  const mail = await moneyNoticeMail(language, 'ana@example.com', 'Ana', facts, paymentUrl);
  return { subject: mail.subject, text: plain(mail.text), html: mail.html };
};

const renewal: MoneyNoticeFacts = {
  kind: 'renewal_notice',
  plan: 'yearly',
  amountCents: 29_000,
  chargeAt: '2026-12-08T12:00:00.000Z',
};

describe('the yearly renewal notice', () => {
  it('says the amount, the day and how to cancel, in Spanish', async () => {
    const { subject, text, html } = await textOf('es', renewal);
    expect(subject).toBe('Tu plan anual se renueva el 8 de diciembre de 2026');
    expect(text).toContain('Hola, Ana');
    expect(text).toContain('cobraremos USD 290.00 a la tarjeta de tu suscripción');
    expect(text).toContain('«Cancelar la renovación» antes del 8 de diciembre de 2026');
    expect(text).toContain('una renovación cobrada no se devuelve');
    expect(text).toContain('el robot no garantiza ganancias');
    expect(text).toContain('no se pueden desactivar');
    expect(html).toContain(`href="${paymentUrl}"`);
  });

  it('says the same in Portuguese', async () => {
    const { subject, text } = await textOf('pt', renewal);
    expect(subject).toBe('Seu plano anual será renovado em 8 de dezembro de 2026');
    expect(text).toContain('Olá, Ana');
    expect(text).toContain('cobraremos US$ 290,00 no cartão da sua assinatura');
    expect(text).toContain('«Cancelar a renovação» antes de 8 de dezembro de 2026');
    expect(text).toContain('uma renovação cobrada não é devolvida');
    expect(text).toContain('o robô não garante lucros');
  });
});

describe('the free month ending notice', () => {
  const endsAt = '2026-12-04T09:30:00.000Z';

  it('without a plan: nothing is charged and the robot stops that day', async () => {
    const es = await textOf('es', { kind: 'free_month_ending', endsAt, charge: null });
    expect(es.subject).toBe('Tu mes gratis termina el 4 de diciembre de 2026');
    expect(es.text).toContain('no te cobraremos nada: ese día el robot deja de abrir operaciones');
    expect(es.text).toContain('No tienes nada que cancelar');
    const pt = await textOf('pt', { kind: 'free_month_ending', endsAt, charge: null });
    expect(pt.subject).toBe('Seu mês grátis termina em 4 de dezembro de 2026');
    expect(pt.text).toContain('não cobraremos nada: nesse dia o robô deixa de abrir operações');
  });

  it('with a plan chosen: the first charge and how to cancel it', async () => {
    const facts: MoneyNoticeFacts = {
      kind: 'free_month_ending',
      endsAt,
      charge: { plan: 'monthly', amountCents: 2_900 },
    };
    const es = await textOf('es', facts);
    expect(es.text).toContain('Ese día cobraremos USD 29.00 del plan mensual');
    expect(es.text).toContain('«Cancelar la renovación» antes del 4 de diciembre de 2026');
    const pt = await textOf('pt', facts);
    expect(pt.text).toContain('Nesse dia cobraremos US$ 29,00 do plano mensal');
    expect(pt.text).toContain('«Cancelar a renovação» antes de 4 de dezembro de 2026');
  });
});

describe('the failed charge notice', () => {
  const failed: MoneyNoticeFacts = {
    kind: 'payment_failed',
    plan: 'monthly',
    amountCents: 2_900,
    retryAt: '2026-12-02T12:00:00.000Z',
  };

  it('says what happened, that the robot opens nothing new, what stays open, and the retry', async () => {
    const es = await textOf('es', failed);
    expect(es.subject).toBe('No pudimos cobrar tu suscripción');
    expect(es.text).toContain('No pudimos cobrar USD 29.00 del plan mensual a tu tarjeta.');
    expect(es.text).toContain('tu robot no abre operaciones nuevas');
    expect(es.text).toContain('siguen abiertas con su take-profit y su stop-loss');
    expect(es.text).toContain('Volveremos a intentar el cobro el 2 de diciembre de 2026');
    expect(es.text).toContain(paymentUrl);
    const pt = await textOf('pt', failed);
    expect(pt.subject).toBe('Não conseguimos cobrar sua assinatura');
    expect(pt.text).toContain('seu robô não abre operações novas');
    expect(pt.text).toContain('Tentaremos a cobrança de novo em 2 de dezembro de 2026');
  });

  it('without a next attempt, says there is none', async () => {
    const es = await textOf('es', { ...failed, retryAt: null });
    expect(es.text).toContain('No haremos más intentos automáticos');
    expect(es.text).not.toContain('Volveremos a intentar');
  });

  it('is pushed with its subject, its first lines and the payment page', () => {
    const row: OutboxRow = {
      id: '1',
      userId: 'u',
      kind: 'payment_failed',
      payload: failed,
      createdAt: new Date('2026-12-01T12:00:00Z'),
    };
    const links = { dashboard: 'https://t/d', settings: 'https://t/s', payment: paymentUrl };
    const push = notificationPush('pt', [row], links);
    expect(push.title).toBe('Não conseguimos cobrar sua assinatura');
    expect(plain(push.body)).toContain('Não conseguimos cobrar US$ 29,00 do plano mensal');
    expect(push.url).toBe(paymentUrl);
  });
});
