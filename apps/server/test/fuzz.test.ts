import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { v1, validRegistration } from './helpers/accounts';
import { testEngine } from './helpers/database';
import { trader, useRobotApp } from './helpers/trading';

/**
 * Bad input for every endpoint of the OpenAPI document, read at run time so that endpoints
 * added later are fuzzed too (issue 11). Each request is built from the operation's own
 * schemas: known fields with wrong types, control characters, huge and odd strings, prototype
 * keys, bodies that are not objects or not JSON, odd content types, repeated and undecodable
 * query parameters, and with a valid session, a broken one or none. No answer may be a 5xx or
 * carry a stack trace; every refusal is our localized error shape.
 */
const totalRequests = Number(process.env.FUZZ_REQUESTS ?? 20_000);
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  maxLength?: number;
  minimum?: number;
  maximum?: number;
}

interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  schema?: JsonSchema;
}

interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  body: JsonSchema | undefined;
  secured: boolean;
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Parameter[];
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
        security?: unknown[];
      }
    >
  >;
}

async function operationsOf(app: FastifyInstance): Promise<Operation[]> {
  const response = await app.inject({ url: '/core-api/docs/json' });
  const document = response.json<OpenApiDocument>();
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      parameters: operation.parameters ?? [],
      body: operation.requestBody?.content?.['application/json']?.schema,
      secured: (operation.security?.length ?? 0) > 0,
    })),
  );
}

/** Strings that have broken servers: control characters, surrogates, injections, sizes. */
const nastyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    'a\udfffb',
    '\u202e',
    '\ufeff',
    '%00',
    '%E0%A4%A',
    '../../../etc/passwd',
    "' OR '1'='1' --",
    '"; drop table users; --',
    '<script>alert(1)</script>',
    '${jndi:ldap://x}',
    '{{constructor.constructor("return 1")()}}',
    '__proto__',
    'constructor',
    'NaN',
    '-1',
    '1e309',
    '0x10',
    '   MESGRATIS   ',
    'maria@example.com',
    'demo@tradebot.app',
    'segura123',
    '123456',
    '{"forex":true,"cripto":false,"stocks":true,"index":true,"commodities":true}',
    '{"__proto__":{"x":true}}',
    '[]',
    'é'.repeat(5_000),
  ),
  fc.integer({ min: 1, max: 3 }).map((power) => 'x'.repeat(10 ** (power + 2))),
);

const protoKey = fc.constantFrom(
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
);

const generatedValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 3 },
    nastyString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom(1e308, -0, Number.MAX_SAFE_INTEGER + 2, -1, 0),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), protoKey), tie('value'), { maxKeys: 4 }),
  ),
})).value;

/**
 * Drawing nested values costs fast-check about a millisecond each: they are drawn once into
 * pools, and each request picks from them (and from fresh nasty strings), so that 20,000
 * requests fit the suite's time.
 */
const pool = <T>(arbitrary: fc.Arbitrary<T>, size: number) =>
  fc.constantFrom(...fc.sample(arbitrary, { numRuns: size, seed }));
const anyValue = fc.oneof(pool(generatedValue, 600), pool(nastyString, 300));

/** A value for a field: often a plausible one (so the request gets further), often not. */
function fieldValue(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  const plausible: fc.Arbitrary<unknown>[] = [];
  const branches = [schema, ...(schema?.anyOf ?? [])].filter(Boolean) as JsonSchema[];
  for (const branch of branches) {
    if (branch.enum) plausible.push(fc.constantFrom(...branch.enum));
    if (branch.type === 'boolean') plausible.push(fc.boolean());
    if (branch.type === 'integer' || branch.type === 'number') {
      plausible.push(
        fc.integer({ min: (branch.minimum ?? 0) - 2, max: (branch.maximum ?? 10) + 2 }),
      );
    }
    if (branch.type === 'string' && !branch.enum) {
      plausible.push(
        fc.constantFrom(
          validRegistration.email,
          validRegistration.password,
          'María',
          'MESGRATIS',
          '123456',
          '{"forex":true,"cripto":true,"stocks":false,"index":true,"commodities":true}',
        ),
      );
    }
  }
  return plausible.length > 0 ? fc.oneof(fc.oneof(...plausible), anyValue) : anyValue;
}

/** JSON text of a drawn value (JSON.stringify would answer undefined for undefined). */
const json = (value: unknown): string => (value === undefined ? 'null' : JSON.stringify(value));

/** JSON text of an object, keeping keys such as __proto__ as own keys. */
function objectText(entries: [string, unknown][]): string {
  return `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${json(value)}`).join(',')}}`;
}

function bodyText(schema: JsonSchema | undefined): fc.Arbitrary<string | undefined> {
  const objectSchema = [schema, ...(schema?.anyOf ?? [])].find((branch) => branch?.properties);
  const known = Object.entries(objectSchema?.properties ?? {}).map(([name, property]) =>
    fc.option(
      fieldValue(property).map((value): [string, unknown] => [name, value]),
      {
        nil: undefined,
        freq: 3,
      },
    ),
  );
  const extra = fc.array(fc.tuple(fc.oneof(protoKey, fc.string({ maxLength: 10 })), anyValue), {
    maxLength: 2,
  });
  const object = fc
    .tuple(fc.tuple(...known), extra)
    .map(([fields, extras]) =>
      objectText([
        ...fields.filter((field): field is [string, unknown] => field !== undefined),
        ...extras,
      ]),
    );
  return fc.oneof(
    { weight: 6, arbitrary: object },
    { weight: 1, arbitrary: anyValue.map((value) => json(value)) },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.string({ unit: 'binary', maxLength: 30 }),
        fc.constantFrom(
          '{',
          '{"a":',
          '{"a":1,}',
          "{'a':1}",
          '['.repeat(2_000),
          '{"a":'.repeat(1_000),
          `{"pad":"${'x'.repeat(300 * 1024)}"}`,
          'null',
          '',
        ),
      ),
    },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

/** Every UTF-8 byte percent-encoded (a lone surrogate becomes U+FFFD, as a browser sends it). */
const percentEncoded = (text: string): string =>
  [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');

/** A value as a query parameter's text (JSON for anything but a string). */
const asText = (value: unknown): string => (typeof value === 'string' ? value : json(value));

function queryString(parameters: Parameter[]): fc.Arbitrary<string> {
  const pairs = parameters
    .filter((parameter) => parameter.in === 'query')
    .map((parameter) =>
      fc.option(
        fc.oneof(
          fieldValue(parameter.schema).map(
            (value) => `${parameter.name}=${percentEncoded(asText(value))}`,
          ),
          fc.constantFrom(
            `${parameter.name}=a&${parameter.name}=b`,
            `${parameter.name}[]=1`,
            `${parameter.name}[__proto__][x]=1`,
            `${parameter.name}=%E0%A4%A`,
            `${parameter.name}=%00`,
            parameter.name,
          ),
        ),
        { nil: undefined },
      ),
    );
  const extra = fc.option(fc.constantFrom('__proto__[x]=1', 'constructor=1', 'a=%ZZ'), {
    nil: undefined,
  });
  return fc.tuple(fc.tuple(...pairs), extra).map(([chosen, more]) => {
    const parts = [...chosen, more].filter((part): part is string => part !== undefined);
    return parts.length > 0 ? `?${parts.join('&')}` : '';
  });
}

function pathWith(path: string, parameters: Parameter[]): fc.Arbitrary<string> {
  const names = parameters.filter((parameter) => parameter.in === 'path').map((p) => p.name);
  return fc
    .tuple(...names.map(() => nastyString))
    .map((values) =>
      names.reduce(
        (built, name, index) => built.replace(`{${name}}`, percentEncoded(values[index] ?? '')),
        path,
      ),
    );
}

/** Mostly JSON, as the API speaks: the rest is refused with a 415 before anything else runs. */
const contentType = fc.oneof(
  { weight: 12, arbitrary: fc.constant('application/json') },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'application/json; charset=latin1',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      undefined,
    ),
  },
);

/** Session ending routes get no valid token: the fuzz keeps its session for the others. */
const endsTheSession = (operation: Operation) => operation.path.endsWith('/logout');

function requestFor(operation: Operation, validToken: string) {
  const broken = fc.constantFrom<string | undefined>(
    undefined,
    'Bearer ',
    `Bearer ${'x'.repeat(43)}`,
    `Bearer ${'x'.repeat(5_000)}`,
    'Basic dXNlcjpwYXNz',
    'Bearer \u0000',
  );
  const authorization = endsTheSession(operation)
    ? broken
    : fc.oneof(
        { weight: 3, arbitrary: fc.constant(`Bearer ${validToken}`) },
        { weight: 2, arbitrary: broken },
      );
  return fc.record({
    url: fc
      .tuple(pathWith(operation.path, operation.parameters), queryString(operation.parameters))
      .map(([path, query]) => `${path}${query}`),
    body: bodyText(operation.body),
    contentType,
    authorization,
    language: fc.constantFrom(undefined, 'pt-BR', 'es', 'xx', '*', ';q=,', 'pt;q=abc'),
  });
}

const stackTrace = /\n\s+at |node_modules|\.[jt]s:\d+|\/work\/|\/tmp\//;

describe(`fuzzing every endpoint of the OpenAPI document (${testEngine})`, () => {
  const context = useRobotApp({ ROBOT_WARM_UP_MS: '0' });

  it(`answers ${String(totalRequests)} bad requests without a 5xx or a stack trace`, async () => {
    const { app } = context;
    const { token } = await trader(app, { email: 'fuzz@example.com' });
    const operations = await operationsOf(app);
    expect(operations.map((operation) => operation.path)).toContain(`${v1}/register`);
    const runsEach = Math.ceil(totalRequests / operations.length);
    const statuses = new Map<number, number>();
    let sent = 0;
    const cpuBefore = process.cpuUsage();

    for (const operation of operations) {
      await fc.assert(
        fc.asyncProperty(requestFor(operation, token), async (request) => {
          const headers: Record<string, string> = {};
          if (request.contentType && request.body !== undefined) {
            headers['content-type'] = request.contentType;
          }
          if (request.authorization) headers.authorization = request.authorization;
          if (request.language) headers['accept-language'] = request.language;
          const response = await app.inject({
            method: operation.method as 'GET',
            url: request.url,
            headers,
            ...(request.body !== undefined && operation.method !== 'GET'
              ? { payload: request.body }
              : {}),
          });
          sent++;
          statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
          const what = `${operation.method} ${request.url} -> ${String(response.statusCode)} ${response.body.slice(0, 300)}`;
          expect(response.statusCode, what).toBeLessThan(500);
          expect(stackTrace.test(response.body), what).toBe(false);
          if (response.statusCode >= 400) {
            const answer = response.json<{ message?: unknown; code?: unknown }>();
            expect(typeof answer.message, what).toBe('string');
            expect(typeof answer.code, what).toBe('string');
          }
        }),
        { numRuns: runsEach, seed, endOnFailure: true },
      );
    }

    const cpu = process.cpuUsage(cpuBefore);
    console.info(
      `fuzz (${testEngine}, seed ${String(seed)}): ${String(sent)} requests over ${String(operations.length)} operations, ${String(Math.round((cpu.user + cpu.system) / 1000))} ms of CPU; statuses`,
      Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
    );
    expect(sent).toBeGreaterThanOrEqual(totalRequests);
    // Seen: refusals of every kind, and answers that got through.
    const seen = [...statuses.keys()];
    expect(seen).toEqual(expect.arrayContaining([200, 400, 401, 415, 422]));
    // Over a full run, valid attempts pile up past the rate limits too.
    if (totalRequests >= 20_000) expect(seen).toContain(429);
  }, 300_000);
});
