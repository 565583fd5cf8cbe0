import type { Language } from '@tradebot/contract';
import { defaultLanguage, isLanguage, languages } from '@tradebot/contract/constants';
import i18next, { type TFunction } from 'i18next';
import {
  initReactI18next,
  useTranslation as useReactI18nextTranslation,
  type UseTranslationResponse,
} from 'react-i18next';
import esCommon from '../locales/es/common.json';
import { rememberLanguage } from './language-url';
import { storage } from './storage';

/**
 * i18n (spec §4 Language, docs/decisions/034 and 053): i18next with react-i18next. Spanish
 * `common` (the shell: header, guards, overlay, errors, page titles) is bundled; every other
 * catalogue, and every Portuguese one, is its own chunk, fetched when a route or the language
 * needs it (the prerendered pages already hold their text, so nothing waits for it to paint).
 */
export type Namespace =
  | 'common'
  | 'home'
  | 'faq'
  | 'legal'
  | 'broker'
  | 'promo'
  | 'auth'
  | 'forms'
  | 'linking'
  | 'dashboard'
  | 'robot-settings'
  | 'billing'
  | 'plans'
  | 'support'
  | 'admin'
  | 'track-record'
  | 'account-settings';

const lazyCatalogues = import.meta.glob<{ default: Record<string, unknown> }>([
  '../locales/*/*.json',
  '!../locales/es/common.json',
]);

/** The choice kept in storage, if any (spec §4). */
export function storedLanguage(): Language | null {
  const stored = storage.get('language');
  return isLanguage(stored) ? stored : null;
}

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: { es: { common: esCommon } },
  lng: defaultLanguage,
  fallbackLng: defaultLanguage,
  supportedLngs: [...languages],
  defaultNS: 'common',
  ns: ['common'],
  partialBundledLanguages: true,
  interpolation: { escapeValue: false },
  initAsync: false,
  react: {
    // Catalogues are loaded before a screen renders (router.tsx), never suspended on; a
    // catalogue that arrives later (a language switch) re-renders what uses it.
    useSuspense: false,
    bindI18n: 'languageChanged',
    bindI18nStore: 'added',
  },
});

// spec §4 Language: the choice is kept in storage and applied immediately and on every change.
function applyLanguage(language: string) {
  if (!isLanguage(language)) return;
  rememberLanguage(language);
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

/**
 * Starts i18n in `language` (the page's address, or the stored choice: main.tsx) with its
 * shell catalogue loaded, and from then on keeps every change.
 */
export async function startI18n(language: Language): Promise<void> {
  await i18n.changeLanguage(language);
  await loadNamespaces(['common']);
  applyLanguage(language);
  i18n.on('languageChanged', applyLanguage);
}

const wanted = new Set<string>(['common']);

async function loadCatalogue(language: Language, namespace: string): Promise<void> {
  if (i18n.hasResourceBundle(language, namespace)) return;
  const load = lazyCatalogues[`../locales/${language}/${namespace}.json`];
  if (!load) return;
  const catalogue = await load();
  i18n.addResourceBundle(language, namespace, catalogue.default, true, true);
}

/** Registers a namespace (anything i18n can render) in Spanish and in Portuguese. */
export function addCatalogue(
  namespace: string,
  catalogues: Record<Language, Record<string, unknown>>,
): void {
  wanted.add(namespace);
  for (const language of languages) {
    if (!i18n.hasResourceBundle(language, namespace)) {
      i18n.addResourceBundle(language, namespace, catalogues[language], true, true);
    }
  }
}

export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : defaultLanguage;
}

/** Loads namespaces in the current language and in the fallback (Spanish). */
export async function loadNamespaces(namespaces: readonly Namespace[]): Promise<void> {
  const targets = new Set<Language>([currentLanguage(), defaultLanguage]);
  for (const namespace of namespaces) wanted.add(namespace);
  await Promise.all(
    [...targets].flatMap((language) =>
      namespaces.map((namespace) => loadCatalogue(language, namespace)),
    ),
  );
}

type LanguageSwitchListener = (language: Language) => void;
const switchListeners = new Set<LanguageSwitchListener>();

/** Called after a language switch (main.tsx moves the router to the language's address). */
export function onLanguageSwitched(listener: LanguageSwitchListener): () => void {
  switchListeners.add(listener);
  return () => switchListeners.delete(listener);
}

/** Loads what the page shows in the new language, then switches at once. */
export async function changeLanguage(language: Language): Promise<void> {
  await Promise.all([...wanted].map((namespace) => loadCatalogue(language, namespace)));
  await i18n.changeLanguage(language);
  for (const listener of switchListeners) listener(language);
}

/**
 * react-i18next's `useTranslation`, plus the current language as a `Language` (what the
 * callers format numbers and send requests with).
 */
export function useTranslation(namespace: Namespace = 'common'): {
  t: UseTranslationResponse<Namespace, undefined>['t'];
  i18n: typeof i18n;
  language: Language;
} {
  const { t, i18n: instance } = useReactI18nextTranslation(namespace);
  const language = isLanguage(instance.language) ? instance.language : defaultLanguage;
  return { t, i18n: instance, language };
}

/** A structured catalogue entry (a list of sections, of questions...). */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller knows the catalogue's shape
export function translateObject<T>(t: TFunction, key: string) {
  return t(key, { returnObjects: true }) as unknown as T;
}
