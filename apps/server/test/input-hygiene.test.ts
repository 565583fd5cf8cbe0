import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../src/db/schema';
import { useTestApp } from './helpers/app';
import {
  bearer,
  confirmationTokenFor,
  confirmRegistration,
  login,
  register,
  registeredToken,
  registeredWithRecoveryCode,
  v1,
  validRegistration,
} from './helpers/accounts';

const nul = 'a\u0000b';

async function userCount(context: ReturnType<typeof useTestApp>) {
  const [row] = await context.app.database.db.select({ n: sql<number>`count(*)::int` }).from(users);
  return row?.n ?? -1;
}

describe('control characters in text fields (issue 11, finding 3)', () => {
  const context = useTestApp();

  it('validate-promocode answers 422 in the request language, without a session', async () => {
    const response = await context.app.inject({
      method: 'POST',
      url: `${v1}/validate-promocode`,
      payload: { promocode: nul },
      headers: { 'accept-language': 'pt-BR' },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      message: 'Verifique os dados enviados.',
      code: 'VALIDATION_FAILED',
      errors: { promocode: ['Contém caracteres não permitidos'] },
    });
  });

  it.each(['promocode', 'partner_id', 'client_source', 'referral', 'name', 'phone', 'password'])(
    'register refuses a NUL byte in %s with 422, and stores nothing',
    async (field) => {
      const value = field === 'password' ? 'segura123\u0000' : nul;
      const response = await register(context.app, {
        [field]: value,
        ...(field === 'password' ? { confirm_password: value } : {}),
      });
      expect(response.statusCode).toBe(422);
      expect(response.json<{ errors: Record<string, string[]> }>().errors[field]).toEqual([
        'Contiene caracteres no permitidos',
      ]);
      expect(await userCount(context)).toBe(0);
    },
  );

  it('update-promocode (signed in) and email-subscription refuse one too', async () => {
    const token = await registeredToken(context.app);
    const update = await context.app.inject({
      method: 'PUT',
      url: `${v1}/update-promocode`,
      headers: bearer(token),
      payload: { promocode: nul },
    });
    expect(update.statusCode).toBe(422);
    const subscription = await context.app.inject({
      method: 'POST',
      url: `${v1}/email-subscription`,
      payload: { email: 'lector@example.com', promo: nul },
    });
    expect(subscription.statusCode).toBe(422);
    expect(subscription.json<{ errors: Record<string, string[]> }>().errors).toEqual({
      promo: ['Contiene caracteres no permitidos'],
    });
  });

  it('a query string with one is refused too', async () => {
    const token = await registeredToken(context.app);
    const response = await context.app.inject({
      url: `${v1}/get-all-data?before=a%00b`,
      headers: bearer(token),
    });
    expect(response.statusCode).toBe(422);
  });
});

describe('malformed URLs (finding 9)', () => {
  const context = useTestApp();

  it.each([
    ['es', '/core-api/public/api/v1/login%E0%A4%A', 'La solicitud no es válida.'],
    ['pt', '/core-api/public/api/v1/login%E0%A4%A', 'A solicitação não é válida.'],
    ['es', '/%E0%A4%A', 'La solicitud no es válida.'],
  ])(
    'answer the localized 400 (%s) for %s, without echoing the URL',
    async (language, url, message) => {
      const response = await context.app.inject({
        method: 'POST',
        url,
        headers: { 'accept-language': language },
      });
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.json()).toEqual({ message, code: 'BAD_REQUEST' });
    },
  );
});

describe('failed writes in the log (finding 4)', () => {
  const lines: string[] = [];
  const context = useTestApp({ LOG_LEVEL: 'info' }, () => ({
    logStream: new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    }),
  }));

  /** From now on every new or changed row of the table breaks a constraint. */
  async function refuseWrites(table: 'users' | 'sessions') {
    await context.app.database.db.execute(
      sql.raw(`alter table ${table} add constraint refuse_writes check (false) not valid`),
    );
  }

  it('never carry a password hash, a token hash, an e-mail, a name or a password', async () => {
    lines.length = 0;
    const code = await registeredWithRecoveryCode(context.app, context.mailDir);
    const waiting = await register(context.app, {
      email: 'secreta@example.com',
      name: 'Anacleta',
      last_name: 'Pizarnik',
      password: 'Clave9secreta',
      confirm_password: 'Clave9secreta',
    });
    const nonce = waiting.json<{ data: { nonce: string } }>().data.nonce;
    const link = await confirmationTokenFor(context.app, 'secreta@example.com');
    await refuseWrites('users');
    await refuseWrites('sessions');

    // An insert of a user, an update of a password, an insert of a session: each fails.
    const failed = [
      await confirmRegistration(context.app, { token: link, nonce }),
      await context.app.inject({
        method: 'POST',
        url: `${v1}/set-password`,
        payload: {
          email: validRegistration.email,
          otp: code,
          password: 'Otra9secreta',
          confirm_password: 'Otra9secreta',
        },
      }),
      await login(context.app, {
        email: validRegistration.email,
        password: validRegistration.password,
      }),
    ];
    expect(failed.map((response) => response.statusCode)).toEqual([500, 500, 500]);
    expect(failed[0]?.json()).toEqual({
      message: 'Ocurrió un error inesperado. Inténtalo de nuevo en unos minutos.',
      code: 'INTERNAL_ERROR',
    });

    const log = lines.join('');
    const errors = lines.filter((line) => line.includes('"request failed"'));
    expect(errors).toHaveLength(3);
    // What is there: enough to tell what failed.
    expect(errors[0]).toContain('refuse_writes');
    expect(errors[0]).toContain('Failed query: insert into');
    // What is not: no secret anywhere in the log, nor what the failed rows held.
    for (const secret of [
      '$argon2id$',
      'Clave9secreta',
      'Otra9secreta',
      validRegistration.password,
      code,
    ]) {
      expect(log, secret).not.toContain(secret);
    }
    for (const personal of [
      'secreta@example.com',
      validRegistration.email,
      'Anacleta',
      'Pizarnik',
      'Failing row contains',
    ]) {
      expect(errors.join(''), personal).not.toContain(personal);
    }
    expect(log).not.toMatch(/[0-9a-f]{64}/);
  });
});
