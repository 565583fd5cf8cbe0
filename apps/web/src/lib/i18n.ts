import {
  defaultLanguage,
  isLanguage,
  languages,
  messageCatalogue,
  type Language,
} from '@tradebot/contract';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import esCommon from '../locales/es/common.json';
import ptCommon from '../locales/pt/common.json';
import { storage } from './storage';

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

export const resources = {
  es: { common: esCommon, contract: nest(messageCatalogue.es) },
  pt: { common: ptCommon, contract: nest(messageCatalogue.pt) },
} as const;

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

void i18n.use(initReactI18next).init({
  resources,
  lng: initialLanguage(),
  fallbackLng: defaultLanguage,
  supportedLngs: [...languages],
  defaultNS: 'common',
  ns: ['common', 'contract'],
  interpolation: { escapeValue: false },
  initAsync: false,
});
applyToDocument(i18n.language);
