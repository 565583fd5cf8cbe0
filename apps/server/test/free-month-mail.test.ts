import { simpleParser } from 'mailparser';
import { beforeEach, describe, expect, it } from 'vitest';
import { PromoCodesRepository } from '../src/repositories/promo-codes.repository';
import { manualClock, readMails, v1 } from './helpers/accounts';
import { useTestApp } from './helpers/app';

/** /promo/mesgratis: the landing promises its free-month code by e-mail (spec §1, §7). */
describe('the free-month e-mail', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00Z'));
  const context = useTestApp({}, () => ({ clock }));
  const subscribe = (payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
    context.app.inject({ method: 'POST', url: `${v1}/email-subscription`, payload, headers });
  const mails = async (atLeast: number) =>
    Promise.all((await readMails(context.mailDir, atLeast)).map((mail) => simpleParser(mail)));

  beforeEach(async () => {
    await new PromoCodesRepository(context.app.database.db).upsert({
      code: 'MESGRATIS',
      benefit: 'free_month',
      validFrom: new Date('2026-01-01T00:00:00Z'),
    });
  });

  it('mails the code in Spanish, and in Portuguese to a visitor reading in Portuguese', async () => {
    expect((await subscribe({ email: 'ana@example.com', promo: 'mesgratis' })).statusCode).toBe(
      201,
    );
    const response = await subscribe(
      { email: 'bruno@example.com', promo: 'mesgratis' },
      { 'accept-language': 'pt-BR,pt;q=0.9' },
    );
    expect(response.statusCode).toBe(201);
    const written = await mails(2);
    const spanish = written.find((mail) => String(mail.html).includes('lang="es"'));
    const portuguese = written.find((mail) => String(mail.html).includes('lang="pt"'));
    expect(spanish?.subject).toBe('Tu código para un mes gratis de Tradebot');
    expect(spanish?.text).toContain('Este es tu código para un mes gratis:\n\n    MESGRATIS');
    expect(spanish?.html).toContain('lang="es"');
    expect(portuguese?.subject).toBe('Seu código para um mês grátis de Tradebot');
    expect(portuguese?.text).toContain('Este é o seu código para um mês grátis:\n\n    MESGRATIS');
    expect(portuguese?.html).toContain('lang="pt"');
  });

  it('does not mail again the same day; a repeat a day later mails again', async () => {
    expect((await subscribe({ email: 'carla@example.com' })).statusCode).toBe(201);
    expect(await mails(1)).toHaveLength(1);
    clock.advance(23 * 3_600_000);
    const repeat = await subscribe({ email: 'CARLA@example.com', promo: 'mesgratis' });
    expect(repeat.statusCode).toBe(201);
    expect(repeat.json()).toEqual({ data: { status: 'subscribed' } });
    // Mail goes out after the answer: give it the time the first one took, then count.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await mails(1)).toHaveLength(1);
    clock.advance(2 * 3_600_000);
    expect((await subscribe({ email: 'carla@example.com', language: 'pt' })).statusCode).toBe(201);
    const [, second] = await mails(2);
    expect(second?.subject).toBe('Seu código para um mês grátis de Tradebot');
  });

  it('refuses a promotion without a usable free-month code, storing and mailing nothing', async () => {
    const response = await subscribe({ email: 'dora@example.com', promo: 'NOEXISTE' });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      message: 'Esta promoción no está disponible en este momento.',
      errors: { promo: ['Esta promoción no está disponible en este momento.'] },
    });
    // The same address with the right promotion is then a first subscription.
    expect((await subscribe({ email: 'dora@example.com', promo: 'mesgratis' })).statusCode).toBe(
      201,
    );
    expect(await mails(1)).toHaveLength(1);
  });
});
