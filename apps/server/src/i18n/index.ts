import i18next, { type TFunction } from 'i18next';
import { languages, type Language } from '@tradebot/contract';
import esCheckout from './es/checkout.json';
import esCsv from './es/csv.json';
import esMail from './es/mail.json';
import esOperator from './es/operator.json';
import ptCheckout from './pt/checkout.json';
import ptCsv from './pt/csv.json';
import ptMail from './pt/mail.json';

/**
 * The server's user-facing text (decision 100): i18next, as in the web app, with one catalogue
 * a namespace and language. `mail` is every e-mail to a user; `checkout` the simulated
 * provider's pages; `csv` the history CSV's headers and words (decision 154); `operator` the mails to the support desk and the console's admins, in
 * Spanish only, the operator's language.
 */
const resources = {
  es: { mail: esMail, checkout: esCheckout, csv: esCsv, operator: esOperator },
  // Typed as the Spanish catalogues: a key missing in Portuguese does not compile.
  pt: {
    mail: ptMail satisfies typeof esMail,
    checkout: ptCheckout satisfies typeof esCheckout,
    csv: ptCsv satisfies typeof esCsv,
  },
};

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'mail';
    resources: (typeof resources)['es'];
  }
}

export type Namespace = keyof (typeof resources)['es'];

const i18n = i18next.createInstance();
void i18n.init({
  resources,
  lng: 'es',
  fallbackLng: false,
  supportedLngs: [...languages],
  ns: ['mail', 'checkout', 'csv', 'operator'],
  defaultNS: 'mail',
  // React escapes what it renders, and a mail's text part is plain text: nothing to escape here.
  interpolation: { escapeValue: false },
  initAsync: false,
});

/** `t` in one language and namespace (`mail` unless told). */
export function translator(language: Language): TFunction;
export function translator<N extends Namespace>(language: Language, namespace: N): TFunction<N>;
export function translator(language: Language, namespace: Namespace = 'mail') {
  return i18n.getFixedT(language, namespace);
}
