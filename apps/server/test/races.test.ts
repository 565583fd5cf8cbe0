import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { passwordResetCodes, promoCodes } from '../src/db/schema';
import { PromoCodesRepository } from '../src/repositories/promo-codes.repository';
import { recoveryPolicy } from '../src/services/password-recovery.service';
import { useTestApp } from './helpers/app';
import {
  bearer,
  registeredToken,
  registeredWithRecoveryCode,
  v1,
  validRegistration,
} from './helpers/accounts';
import { testEngine } from './helpers/database';

/**
 * Requests at once, for real: on PostgreSQL each runs on its own pooled connection
 * (issue 11, finding 10). On PGlite (one connection) they interleave at every query.
 */
describe(`concurrent requests of one user (${testEngine})`, () => {
  const context = useTestApp();

  it('applying one promo code ten times at once uses it once', async () => {
    await new PromoCodesRepository(context.app.database.db).upsert({
      code: 'MESGRATIS',
      benefit: 'free_month',
      validFrom: new Date('2020-01-01T00:00:00Z'),
      validUntil: null,
      maxUses: 100,
    });
    const token = await registeredToken(context.app);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        context.app.inject({
          method: 'PUT',
          url: `${v1}/update-promocode`,
          headers: bearer(token),
          payload: { promocode: 'mesgratis' },
        }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array<number>(10).fill(200));
    const [promo] = await context.app.database.db
      .select()
      .from(promoCodes)
      .where(eq(promoCodes.code, 'MESGRATIS'));
    expect(promo?.uses).toBe(1);
  });

  it(`wrong recovery codes sent at once get ${recoveryPolicy.maxTries} tries between them, no more`, async () => {
    const code = await registeredWithRecoveryCode(context.app, context.mailDir);
    const guess = (otp: string) =>
      context.app.inject({
        method: 'POST',
        url: `${v1}/set-password`,
        payload: {
          email: validRegistration.email,
          otp,
          password: 'nueva4567',
          confirm_password: 'nueva4567',
        },
      });
    const wrong = Array.from({ length: 8 }, (_, index) =>
      String((Number(code) + index + 1) % 1_000_000).padStart(6, '0'),
    );
    const answers = await Promise.all(wrong.map(guess));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array<number>(8).fill(422));
    const [row] = await context.app.database.db.select().from(passwordResetCodes);
    expect(row?.attempts).toBe(recoveryPolicy.maxTries);
    // Every try is spent: the right code no longer works.
    expect((await guess(code)).statusCode).toBe(422);
  });
});
