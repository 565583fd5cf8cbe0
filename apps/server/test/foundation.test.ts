import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp, migrationsFolder } from '../src/app';
import { loadConfig } from '../src/config';
import { migrate, readMigrations, rowsOf } from '../src/db/migrate';
import { useTestApp } from './helpers/app';
import { createTestDatabase, type TestDatabase } from './helpers/database';

const countryCode = '/core-api/public/api/v1/country-code';

describe('operations endpoints', () => {
  const context = useTestApp();

  it('answers liveness and readiness', async () => {
    const health = await context.app.inject({ url: '/core-api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ data: { status: 'ok' } });

    const ready = await context.app.inject({ url: '/core-api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ data: { status: 'ready', database: 'up' } });
  });

  it('is not ready, with a localized 503, when the database is gone', async () => {
    await context.testDatabase.drop();
    const ready = await context.app.inject({
      url: '/core-api/ready',
      headers: { 'accept-language': 'pt' },
    });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({
      message: 'O serviço não está disponível no momento.',
      code: 'SERVICE_UNAVAILABLE',
    });
  });

  it('publishes an OpenAPI document generated from the schemas, and a docs UI', async () => {
    const doc = await context.app.inject({ url: '/core-api/docs/json' });
    expect(doc.statusCode).toBe(200);
    const body = doc.json<{ openapi: string; paths: Record<string, Record<string, unknown>> }>();
    expect(body.openapi).toBe('3.1.0');
    expect(body.paths[countryCode]?.post).toBeDefined();
    expect(body.paths['/core-api/ready']?.get).toBeDefined();

    const ui = await context.app.inject({ url: '/core-api/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toContain('text/html');
  });

  it('echoes a sane request id and makes one up otherwise', async () => {
    const given = await context.app.inject({
      url: '/core-api/health',
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(given.headers['x-request-id']).toBe('abc-123');
    const madeUp = await context.app.inject({
      url: '/core-api/health',
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    expect(madeUp.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('POST country-code', () => {
  describe('without TRUST_PROXY', () => {
    const context = useTestApp();

    it('answers AR for loopback and ignores X-Forwarded-For', async () => {
      const plain = await context.app.inject({ method: 'POST', url: countryCode });
      expect(plain.statusCode).toBe(200);
      expect(plain.json()).toEqual({ data: 'AR' });

      const spoofed = await context.app.inject({
        method: 'POST',
        url: countryCode,
        headers: { 'x-forwarded-for': '200.147.67.142' },
      });
      expect(spoofed.json()).toEqual({ data: 'AR' });
    });

    it('uses the socket address', async () => {
      const response = await context.app.inject({
        method: 'POST',
        url: countryCode,
        remoteAddress: '200.147.67.142',
      });
      expect(response.json()).toEqual({ data: 'BR' });
    });
  });

  describe('behind TRUST_PROXY', () => {
    const context = useTestApp({ TRUST_PROXY: '1' });

    it.each([
      ['181.30.0.1', 'AR'],
      ['200.147.67.142', 'BR'],
      ['8.8.8.8', 'US'],
      ['127.0.0.1', 'AR'],
      ['10.0.0.7', 'AR'],
    ])('locates %s in %s', async (ip, country) => {
      const response = await context.app.inject({
        method: 'POST',
        url: countryCode,
        headers: { 'x-forwarded-for': ip, 'content-type': 'application/json' },
        payload: '{}',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ data: country });
    });
  });
});

describe('errors', () => {
  const context = useTestApp();

  it('answers a malformed body with a 400 in Spanish by default', async () => {
    const response = await context.app.inject({
      method: 'POST',
      url: countryCode,
      headers: { 'content-type': 'application/json' },
      payload: '{"language":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'El cuerpo de la solicitud no es un JSON válido.',
      code: 'INVALID_JSON',
    });
  });

  it('follows Accept-Language', async () => {
    const response = await context.app.inject({
      method: 'POST',
      url: countryCode,
      headers: { 'content-type': 'application/json', 'accept-language': 'pt-BR,pt;q=0.9' },
      payload: 'not json',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toBe(
      'O corpo da solicitação não é um JSON válido.',
    );
  });

  it('answers invalid fields with 422 and field errors, the body language first', async () => {
    const response = await context.app.inject({
      method: 'POST',
      url: countryCode,
      headers: { 'accept-language': 'es' },
      payload: { language: 'fr' },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      message: 'Revisa los datos enviados.',
      code: 'VALIDATION_FAILED',
      errors: { language: ['Valor no válido'] },
    });
  });

  it('refuses a body that is not JSON with 415', async () => {
    const response = await context.app.inject({
      method: 'POST',
      url: countryCode,
      headers: { 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json<{ code: string }>().code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('refuses an oversized body with 413', async () => {
    const response = await context.app.inject({
      method: 'POST',
      url: countryCode,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ language: 'es', padding: 'x'.repeat(300 * 1024) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json<{ code: string }>().code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers an unknown API path with a JSON 404, in Portuguese when asked', async () => {
    const response = await context.app.inject({
      url: '/core-api/public/api/v1/nothing-here',
      headers: { 'accept-language': 'pt' },
    });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.json()).toEqual({
      message: 'O recurso solicitado não existe.',
      code: 'NOT_FOUND',
    });
  });
});

describe('an unexpected failure', () => {
  it('answers 500 with a generic localized message and never a stack trace', async () => {
    const testDatabase = await createTestDatabase();
    const app = await buildApp(
      loadConfig({ LOG_LEVEL: 'silent', WEB_DIST_DIR: path.join(os.tmpdir(), 'tradebot-none') }),
      { database: testDatabase.database },
    );
    app.get('/core-api/public/api/v1/boom', () => {
      throw new Error('secret internals at /srv/app.ts:42');
    });
    try {
      const response = await app.inject({ url: '/core-api/public/api/v1/boom' });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({
        message: 'Ocurrió un error inesperado. Inténtalo de nuevo en unos minutos.',
        code: 'INTERNAL_ERROR',
      });
      expect(response.body).not.toContain('secret');
      expect(response.body).not.toContain('.ts');
    } finally {
      await app.close();
      await testDatabase.drop();
    }
    // It builds its own database and app in the test's time (others do it in a hook, with 30 s):
    // on a loaded machine that alone has taken more than the default 20 s.
  }, 60_000);
});

/** A schema's tables, columns, indexes and constraints, its own name written as "S". */
async function catalogueOf(testDatabase: TestDatabase) {
  const { db } = testDatabase.database;
  const name = testDatabase.schema;
  const rows = async (query: ReturnType<typeof sql>) =>
    JSON.parse(JSON.stringify(rowsOf(await db.execute(query))).replaceAll(name, 'S')) as unknown[];
  return {
    columns: await rows(sql`select table_name, column_name, data_type, is_nullable, column_default
      from information_schema.columns where table_schema = ${name} order by 1, 2`),
    indexes: await rows(sql`select tablename, indexname, indexdef from pg_indexes
      where schemaname = ${name} order by 1, 2`),
    constraints: await rows(sql`select conrelid::regclass::text as on_table, conname,
      pg_get_constraintdef(oid) as definition from pg_constraint
      where connamespace = ${name}::regnamespace order by 1, 2`),
    migrations: await rows(sql`select tag from ${sql.identifier(name)}.__migrations order by tag`),
  };
}

describe('migrations', () => {
  it('build on an empty schema what every test database starts from', async () => {
    // One after the other: on PGlite the test databases share one session's search_path.
    const empty = await createTestDatabase({ migrated: false });
    let built: Awaited<ReturnType<typeof catalogueOf>>;
    try {
      const migrations = await readMigrations(migrationsFolder);
      const applied = await migrate(empty.database.db, migrations);
      expect(applied).toEqual(migrations.map((migration) => migration.tag));
      built = await catalogueOf(empty);
      expect(built.columns.length).toBeGreaterThan(300);
    } finally {
      await empty.drop();
    }
    const fixture = await createTestDatabase();
    try {
      expect(await catalogueOf(fixture)).toEqual(built);
    } finally {
      await fixture.drop();
    }
  });

  it('apply once, and a second run applies nothing', async () => {
    const testDatabase = await createTestDatabase();
    try {
      const again = await migrate(testDatabase.database.db, await readMigrations(migrationsFolder));
      expect(again).toEqual([]);
    } finally {
      await testDatabase.drop();
    }
  });
});
