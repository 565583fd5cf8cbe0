import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { issueMessage, issueMessageText, readIssueMessage } from './issue-message';
import { text } from './text';

/** The first issue a schema reports for an input, parsed as the server does. */
function firstIssue(schema: z.ZodType, input: unknown) {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) throw new Error('expected the input to be refused');
  const [issue] = result.error.issues;
  if (!issue) throw new Error('no issue');
  return issue;
}

const messageOf = (schema: z.ZodType, input: unknown) => issueMessage(firstIssue(schema, input));

describe('issueMessage: one mapping for the server and the web app', () => {
  it("keeps a schema's own catalogue key, with the bound it speaks of", () => {
    expect(messageOf(z.string().min(8, { error: 'validation.min' }), 'corta')).toEqual({
      key: 'validation.min',
      count: 8,
    });
    expect(messageOf(text({ error: 'validation.required' }), undefined)).toEqual({
      key: 'validation.required',
    });
  });

  it('chooses by the kind of issue otherwise', () => {
    expect(messageOf(z.object({ a: z.string() }), {})).toEqual({ key: 'validation.required' });
    expect(messageOf(z.string(), 5)).toEqual({ key: 'validation.invalidValue' });
    expect(messageOf(z.string().min(1), '')).toEqual({ key: 'validation.required' });
    expect(messageOf(z.string().min(3), 'a')).toEqual({ key: 'validation.min', count: 3 });
    expect(messageOf(z.string().max(3), 'abcd')).toEqual({ key: 'validation.max', count: 3 });
    expect(messageOf(z.number().max(3), 4)).toEqual({ key: 'validation.invalidValue' });
    expect(messageOf(z.email(), 'no')).toEqual({ key: 'validation.email' });
    expect(messageOf(z.strictObject({}), { b: 1 })).toEqual({ key: 'validation.unknownField' });
    expect(messageOf(z.enum(['a', 'b']), 'c')).toEqual({ key: 'validation.invalidValue' });
  });

  it("takes a union's keyed branch", () => {
    const either = z.union([
      z.string().regex(/^\d+$/, { error: 'validation.numbersOnly' }),
      z.number(),
    ]);
    expect(messageOf(either, 'x1').key).toBe('validation.numbersOnly');
  });
});

describe('issueMessageText and readIssueMessage: the mapping through a string-only form library', () => {
  const textOf = (schema: z.ZodType, input: unknown) => issueMessageText(firstIssue(schema, input));

  it('writes the key, and the bound after it', () => {
    expect(textOf(z.string().min(8, { error: 'validation.min' }), 'corta')).toBe(
      'validation.min|8',
    );
    expect(textOf(z.string().max(3), 'abcd')).toBe('validation.max|3');
    expect(textOf(z.email(), 'no')).toBe('validation.email');
    expect(textOf(z.object({ a: z.string() }), {})).toBe('validation.required');
  });

  it('reads back what it wrote, for every kind of issue, as issueMessage says it', () => {
    const cases: [z.ZodType, unknown][] = [
      [z.string().min(8, { error: 'validation.min' }), 'corta'],
      [z.string().max(3), 'abcd'],
      [z.string().min(1), ''],
      [z.email(), 'no'],
      [text({ error: 'validation.required' }), undefined],
      [z.enum(['a', 'b']), 'c'],
    ];
    for (const [schema, input] of cases) {
      expect(readIssueMessage(textOf(schema, input))).toEqual(messageOf(schema, input));
    }
  });

  it("reads anything else (zod's own English, a broken count) as the generic message", () => {
    for (const other of ['Invalid input', 'validation.min|eight', 'validation.min|8|9', '']) {
      expect(readIssueMessage(other)).toEqual({ key: 'validation.invalidValue' });
    }
  });
});
