import {
  issueMessage,
  messageCatalogue,
  type Language,
  type ValidationIssue,
} from '@tradebot/contract/constants';
import type { z } from 'zod';
import { ApiRequestError } from './api-client';
import { addCatalogue } from './i18n';

/**
 * Form errors: what a field shows under it. Client-side checks give catalogue keys with
 * their count (rendered in the current language); the server gives localized text.
 * Loaded only by the form routes, with the contract catalogue and zod.
 */
export type FieldError = { key: string; count?: number } | { text: string };
export type FieldErrors = Partial<Record<string, FieldError>>;

/** "validation.email" -> { validation: { email } }, so contract keys read like ours. */
function nest(flat: Record<string, string>): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(flat)) {
    const parts = key.split('.');
    let node = root;
    for (const part of parts.slice(0, -1)) {
      node[part] ??= {};
      node = node[part] as Record<string, unknown>;
    }
    node[parts.at(-1) ?? key] = value;
  }
  return root;
}

addCatalogue('contract', {
  es: nest(messageCatalogue.es),
  pt: nest(messageCatalogue.pt),
} satisfies Record<Language, unknown>);

/** The catalogue key and count of one zod issue: the contract's mapping, the server's too. */
export function issueError(issue: ValidationIssue): FieldError {
  const { key, count } = issueMessage(issue);
  return count === undefined ? { key: `contract:${key}` } : { key: `contract:${key}`, count };
}

/** The first error of each field, from a failed safeParse. */
export function fieldErrorsFromZod(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '');
    errors[field] ??= issueError(issue);
  }
  return errors;
}

/** The server's field errors (already in the user's language), first message each. */
export function fieldErrorsFromServer(error: unknown): FieldErrors {
  if (!(error instanceof ApiRequestError)) return {};
  const errors: FieldErrors = {};
  for (const [field, messages] of Object.entries(error.fieldErrors)) {
    const first = messages[0];
    if (first) errors[field] = { text: first };
  }
  return errors;
}

/** Validates with a contract schema; `undefined` when valid. */
export function validate<T extends z.ZodType>(
  schema: T,
  values: unknown,
): { data: z.output<T>; errors?: undefined } | { data?: undefined; errors: FieldErrors } {
  const result = schema.safeParse(values, { reportInput: true });
  return result.success ? { data: result.data } : { errors: fieldErrorsFromZod(result.error) };
}

/**
 * A failure that belongs to no field, through the overlay: the server's localized message,
 * or `fallbackKey` (a `common` key) when the server could not be reached.
 */
export function failureMessage(error: unknown, fallbackKey: string) {
  return error instanceof ApiRequestError && error.code !== 'HTTP_ERROR'
    ? { text: error.message }
    : { key: fallbackKey };
}
