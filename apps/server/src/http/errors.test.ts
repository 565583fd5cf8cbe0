import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { DomainError, type DomainErrorClass } from '../domain/errors';
import { PromoCodeInvalid } from '../services/promo-codes.errors';
import { PlatformEmailTaken } from '../services/linking.errors';
import { AppError, codeOfDomainErrorClass, formatWait, handleError } from './errors';

const sourceRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** Every class declared anywhere in src as `class X extends DomainError`, loaded from its module. */
async function declaredDomainErrors(): Promise<
  { name: string; file: string; errorClass: unknown }[]
> {
  const found = [];
  for (const file of sourceFiles(sourceRoot)) {
    const names = [...readFileSync(file, 'utf8').matchAll(/class (\w+) extends DomainError\b/g)];
    if (names.length === 0) continue;
    const module = (await import(file)) as Record<string, unknown>;
    for (const [, name = ''] of names) {
      found.push({ name, file: path.relative(sourceRoot, file), errorClass: module[name] });
    }
  }
  return found;
}

async function answerTo(error: Error, language = 'es') {
  const app = Fastify();
  app.setErrorHandler(handleError);
  app.get('/', () => Promise.reject(error));
  const response = await app.inject({ url: '/', headers: { 'accept-language': language } });
  await app.close();
  return { status: response.statusCode, body: response.json<unknown>() };
}

describe('domain errors to answers', () => {
  it('maps every domain error class declared in the server to a code', async () => {
    const declared = await declaredDomainErrors();
    // The scan itself works: the capabilities' classes are there (billing alone has ten).
    expect(declared.length).toBeGreaterThan(40);
    const unmapped = declared.filter(
      ({ errorClass }) =>
        typeof errorClass !== 'function' ||
        codeOfDomainErrorClass(errorClass as DomainErrorClass) === undefined,
    );
    expect(unmapped.map(({ name, file }) => `${file}: ${name}`)).toEqual([]);
  });

  it('answers a field error with its status, code, message and the field, in the language asked', async () => {
    expect(await answerTo(new PromoCodeInvalid(), 'pt')).toEqual({
      status: 422,
      body: {
        code: 'VALIDATION_FAILED',
        message: expect.any(String) as string,
        errors: { promocode: [expect.any(String) as string] },
      },
    });
    const { body } = (await answerTo(new PromoCodeInvalid(), 'pt')) as {
      body: { message: string; errors: { promocode: string[] } };
    };
    expect(body.errors.promocode).toEqual([body.message]);
    const spanish = (await answerTo(new PromoCodeInvalid(), 'es')).body as { message: string };
    expect(spanish.message).not.toBe(body.message);
  });

  it("answers a class with no key of its own with its code's generic message", async () => {
    const { status, body } = await answerTo(new PlatformEmailTaken());
    expect(status).toBe(409);
    expect(body).toMatchObject({ code: 'PLATFORM_EMAIL_TAKEN' });
    expect(body).not.toHaveProperty('errors');
  });

  it('answers a domain error missing from the table as an internal error, with no detail', async () => {
    class NotInTheTable extends DomainError {
      constructor() {
        super('validation.invalidValue');
      }
    }
    const { status, body } = await answerTo(new NotInTheTable());
    expect(status).toBe(500);
    expect(body).toMatchObject({ code: 'INTERNAL_ERROR' });
    expect(JSON.stringify(body)).not.toContain('NotInTheTable');
  });
});

describe('a refusal for too many attempts (issue 39)', () => {
  it('names the wait in words, rounded up, in the language asked', () => {
    expect(formatWait('es', 30)).toBe('30 segundos');
    expect(formatWait('es', 0.2)).toBe('1 segundo');
    expect(formatWait('pt', 91)).toBe('2 minutos');
    expect(formatWait('es', 3599)).toBe('60 minutos');
    expect(formatWait('pt', 3 * 3600 + 1)).toBe('4 horas');
  });

  it("says the Retry-After a limit set, whether ours or the plugin's, and keeps the header", async () => {
    const app = Fastify();
    app.setErrorHandler(handleError);
    app.get('/ours', () => {
      throw new AppError('RATE_LIMITED', undefined, undefined, { 'retry-after': '120' });
    });
    app.get('/plugin', (_request, reply) => {
      void reply.header('retry-after', '45');
      throw Object.assign(new Error('Rate limit exceeded'), { statusCode: 429 });
    });
    app.get('/unknown', () => {
      throw Object.assign(new Error('Rate limit exceeded'), { statusCode: 429 });
    });
    const ours = await app.inject({ url: '/ours', headers: { 'accept-language': 'pt-BR' } });
    expect(ours.statusCode).toBe(429);
    expect(ours.headers['retry-after']).toBe('120');
    expect(ours.json()).toEqual({
      code: 'RATE_LIMITED',
      message: 'Muitas tentativas. Tente novamente em 2 minutos.',
    });
    const plugin = await app.inject({ url: '/plugin' });
    expect(plugin.json<{ message: string }>().message).toBe(
      'Demasiados intentos. Vuelve a intentarlo en 45 segundos.',
    );
    // Without a Retry-After, the general words.
    const unknown = await app.inject({ url: '/unknown' });
    expect(unknown.json<{ message: string }>().message).toBe(
      'Demasiados intentos. Espera un momento y vuelve a intentarlo.',
    );
    await app.close();
  });
});
