import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as contract from './index';
import { text } from './text';

describe('text()', () => {
  it.each([
    ['NUL', 'a\u0000b'],
    ['escape', 'a\u001bb'],
    ['DEL', 'a\u007fb'],
    ['a C1 control', 'a\u0085b'],
    ['a tab', 'a\tb'],
    ['a line feed', 'a\nb'],
    ['a lone surrogate', 'a\ud800b'],
  ])('refuses %s with validation.invalidCharacters, before any other check', (_name, value) => {
    const result = text().min(10, { error: 'validation.min' }).safeParse(value);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'validation.invalidCharacters',
    ]);
  });

  it('accepts accents, emoji and punctuation', () => {
    expect(text().safeParse("Gonçalves D'Ávila – 😀 ¿?").success).toBe(true);
  });

  it('allows tab and line breaks, and only those, on a multiline field', () => {
    expect(text({ multiline: true }).safeParse('línea 1\r\n\tlínea 2').success).toBe(true);
    expect(text({ multiline: true }).safeParse('a\u0000b').success).toBe(false);
  });

  it('keeps the message for a missing or non-string value', () => {
    expect(
      text({ error: 'validation.required' }).safeParse(undefined).error?.issues[0]?.message,
    ).toBe('validation.required');
  });
});

/** Every request and query schema the contract exports, by name. */
const requestSchemas = Object.entries(contract as Record<string, unknown>).filter(
  (entry): entry is [string, z.ZodType] =>
    /(Request|Query)Schema$/.test(entry[0]) && entry[1] instanceof z.ZodType,
);

interface JsonProperty {
  type?: string;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  anyOf?: JsonProperty[];
}

/**
 * Free-text properties: strings that are not enums, constants or formats (a date-time or a
 * URL refuses a control character with its own format's message).
 */
const isText = (property: JsonProperty): boolean =>
  (property.type === 'string' &&
    !property.enum &&
    property.const === undefined &&
    property.format === undefined) ||
  (property.anyOf?.some(isText) ?? false);

function stringProperties(schema: z.ZodType): string[] {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, JsonProperty>;
    anyOf?: { properties?: Record<string, JsonProperty> }[];
  };
  const properties = json.properties ?? json.anyOf?.find((branch) => branch.properties)?.properties;
  return Object.entries(properties ?? {})
    .filter(([, property]) => isText(property))
    .map(([name]) => name);
}

describe('every text field of every request schema', () => {
  it('finds the request schemas and their text fields', () => {
    expect(requestSchemas.map(([name]) => name)).toContain('registerRequestSchema');
    expect(stringProperties(contract.registerRequestSchema)).toEqual(
      expect.arrayContaining(['promocode', 'partner_id', 'client_source', 'referral', 'phone']),
    );
  });

  it.each(requestSchemas)('%s refuses a NUL byte in each of its text fields', (_name, schema) => {
    for (const field of stringProperties(schema)) {
      const result = schema.safeParse({ [field]: 'a\u0000b' });
      const messages = (result.error?.issues ?? [])
        .filter((issue) => issue.path[0] === field)
        .map((issue) => issue.message);
      expect(messages, field).toEqual(['validation.invalidCharacters']);
    }
  });
});
