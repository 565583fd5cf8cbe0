import type { Language } from '@tradebot/contract';
import { defaultLanguage, isLanguage, languages } from '@tradebot/contract/constants';
import i18next, { type TFunction } from 'i18next';
import { useMemo, useSyncExternalStore } from 'react';
import esCommon from '../locales/es/common.json';
import { storage } from './storage';

/**
 * i18n (spec §4 Language, docs/decisions/034). Spanish `common` (the shell: header,
 * guards, overlay, errors) is bundled; every other catalogue, and every Portuguese one,
 * is its own chunk, fetched when a route or the language needs it.
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
  | 'deferred'
  | 'dashboard'
  | 'robot-settings'
  | 'support'
  | 'admin';

const lazyCatalogues = import.meta.glob<{ default: Record<string, unknown> }>([
  '../locales/*/*.json',
  '!../locales/es/common.json',
]);

export function initialLanguage(): Language {
  const stored = storage.get('language');
  return isLanguage(stored) ? stored : defaultLanguage;
}

function applyToDocument(language: string) {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

export const i18n = i18next.createInstance();

// spec §4 Language: the choice is kept in storage and applied immediately and on every change.
i18n.on('languageChanged', (language) => {
  if (isLanguage(language)) storage.set('language', language);
  applyToDocument(language);
});

void i18n.init({
  resources: { es: { common: esCommon } },
  lng: initialLanguage(),
  fallbackLng: defaultLanguage,
  supportedLngs: [...languages],
  defaultNS: 'common',
  ns: ['common'],
  partialBundledLanguages: true,
  interpolation: { escapeValue: false },
  initAsync: false,
});
applyToDocument(i18n.language);

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

/** Loads namespaces in the current language and in the fallback (Spanish). */
export async function loadNamespaces(namespaces: readonly Namespace[]): Promise<void> {
  const current = isLanguage(i18n.language) ? i18n.language : defaultLanguage;
  const targets = new Set<Language>([current, defaultLanguage]);
  for (const namespace of namespaces) wanted.add(namespace);
  await Promise.all(
    [...targets].flatMap((language) =>
      namespaces.map((namespace) => loadCatalogue(language, namespace)),
    ),
  );
}

/** Loads what the page shows in the new language, then switches at once. */
export async function changeLanguage(language: Language): Promise<void> {
  await Promise.all([...wanted].map((namespace) => loadCatalogue(language, namespace)));
  await i18n.changeLanguage(language);
}

/** Resolves once the stored language's shell catalogue is there (before the first render). */
export function i18nReady(): Promise<void> {
  return loadNamespaces(['common']);
}

// React binding: re-render on a language change or when a catalogue arrives.
let version = 0;
const listeners = new Set<() => void>();
function notify() {
  version += 1;
  for (const listener of listeners) listener();
}
i18n.on('languageChanged', notify);
i18n.store.on('added', notify);
function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
const getVersion = () => version;

/**
 * The small part of react-i18next we use, without its weight (docs/decisions/033):
 * `t` bound to a namespace, and the current language.
 */
export function useTranslation(namespace: Namespace = 'common'): {
  t: TFunction;
  language: Language;
} {
  const current = useSyncExternalStore(subscribe, getVersion, getVersion);
  const language = isLanguage(i18n.language) ? i18n.language : defaultLanguage;
  // `current` makes a new `t` after each change, so memoised children re-render too.
  const t = useMemo(
    () => (current >= 0 ? i18n.getFixedT(language, namespace) : i18n.t),
    [current, language, namespace],
  );
  return { t, language };
}

/** A structured catalogue entry (a list of sections, of questions...). */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller knows the catalogue's shape
export function translateObject<T>(t: TFunction, key: string) {
  return t(key, { returnObjects: true }) as unknown as T;
}
