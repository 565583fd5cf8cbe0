import { messageCatalogue, type Language } from '@tradebot/contract/constants';
import { ApiRequestError } from './api-client';
import { addCatalogue } from './i18n';

/**
 * What a form says when it fails: a catalogue key with its count (rendered in the current
 * language) or the server's localized text. Loaded only by the form routes, with the
 * contract's catalogue, registered here under `contract:`.
 */
export type FieldError = { key: string; count?: number } | { text: string };

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

/**
 * A failure that belongs to no field, through the overlay: the server's localized message,
 * or `fallbackKey` (a `common` key) when the server could not be reached.
 */
export function failureMessage(error: unknown, fallbackKey: string) {
  return error instanceof ApiRequestError && error.code !== 'HTTP_ERROR'
    ? { text: error.message }
    : { key: fallbackKey };
}
