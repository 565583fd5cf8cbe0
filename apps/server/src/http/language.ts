import {
  defaultLanguage,
  isLanguage,
  languageFromAcceptLanguage,
  type Language,
} from '@tradebot/contract';
import type { FastifyRequest } from 'fastify';

/**
 * The language of an answer (ARCHITECTURE.md, Contract): the body's `language`, then
 * Accept-Language, then the user's saved choice, then es.
 */
export function requestLanguage(request: FastifyRequest, savedLanguage?: string): Language {
  const body: unknown = request.body;
  if (body && typeof body === 'object' && 'language' in body && isLanguage(body.language)) {
    return body.language;
  }
  const fromHeader = languageFromAcceptLanguage(request.headers['accept-language']);
  if (fromHeader) return fromHeader;
  if (isLanguage(savedLanguage)) return savedLanguage;
  return defaultLanguage;
}
