import type { Language } from '@tradebot/contract';
import { languages } from '@tradebot/contract/constants';
import { storage } from './storage';

/**
 * Each language has its own addresses (docs/decisions/053): Spanish, the default, at `/…`,
 * Portuguese at `/pt/…`. The router runs under the language's prefix (its basename), so links
 * and redirects stay in the language without knowing about it.
 */
export const languagePrefix: Record<Language, string> = { es: '', pt: '/pt' };

/** The cookie that tells the server the stored choice, so `/…` can send a pt reader to `/pt/…`. */
export const languageCookie = 'language';

/** The language an address names (null: none, the stored choice or Spanish applies) and the rest. */
export function splitLanguagePath(pathname: string): { language: Language | null; path: string } {
  for (const language of languages) {
    const prefix = languagePrefix[language];
    if (prefix === '') continue;
    if (pathname === prefix || pathname.startsWith(`${prefix}/`)) {
      return { language, path: pathname.slice(prefix.length) || '/' };
    }
  }
  return { language: null, path: pathname };
}

/** `path` (an in-app path: `/`, `/login`) at its address in `language`. */
export function localizedPath(language: Language, path: string): string {
  const prefix = languagePrefix[language];
  if (prefix === '') return path;
  return path === '/' ? prefix : `${prefix}${path}`;
}

/** The router's basename in `language` (undefined: the root). */
export function basenameOf(language: Language): string | undefined {
  return languagePrefix[language] || undefined;
}

/** spec §4: the choice is kept in storage; the cookie mirrors it for the server's redirect. */
export function rememberLanguage(language: Language): void {
  storage.set('language', language);
  if (typeof document === 'undefined') return;
  const secure = globalThis.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${languageCookie}=${language}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
}
