import { catalogueText } from './catalogue';

export type Language = 'es' | 'pt';

export interface PublicPage {
  path: string;
  /** The first heading's text in a language. */
  heading: (language: Language) => string;
  /** Another text the page shows (its lead), where it has one. */
  text?: (language: Language) => string;
}

const entry = (namespace: string, heading: string, text?: string) => ({
  heading: (language: Language) => catalogueText(language, namespace, heading),
  ...(text ? { text: (language: Language) => catalogueText(language, namespace, text) } : {}),
});

/** Every public route of spec §2 (for the robotbitcoin landing, a broker of the demo's directory). */
export const publicPages: PublicPage[] = [
  { path: '/', ...entry('home', 'title', 'lead') },
  { path: '/asked-questions', ...entry('faq', 'title', 'lead') },
  { path: '/terms-and-conditions', ...entry('legal', 'terms.title', 'terms.intro') },
  { path: '/privacy-policy', ...entry('legal', 'privacy.title', 'privacy.intro') },
  { path: '/track-record', ...entry('track-record', 'title', 'lead') },
  ...['/searching-broker', '/how-it-works'].flatMap((base) =>
    [1, 2, 3, 4, 5].map((step) => ({
      path: step === 1 ? base : `${base}/${String(step)}`,
      ...entry('broker', `steps.${String(step - 1)}.title`, `steps.${String(step - 1)}.help`),
    })),
  ),
  { path: '/login', ...entry('auth', 'login.title', 'login.lead') },
  { path: '/register', ...entry('auth', 'register.title', 'register.lead') },
  { path: '/forgot-password', ...entry('auth', 'forgot.title', 'forgot.lead') },
  { path: '/set-password', ...entry('auth', 'setPassword.title', 'setPassword.lead') },
  { path: '/promo/mesgratis', ...entry('promo', 'freeMonth.title', 'freeMonth.lead') },
  {
    path: '/promo/robotbitcoin-corredora-andina-ejemplo',
    heading: (language) =>
      catalogueText(language, 'promo', 'robotBitcoin.title').replace(
        '{{broker}}',
        'Corredora Andina (ejemplo)',
      ),
    text: (language) =>
      catalogueText(language, 'promo', 'robotBitcoin.lead').replace(
        '{{broker}}',
        'Corredora Andina (ejemplo)',
      ),
  },
];

/** The address of an in-app path in a language (docs/decisions/053). */
export function addressOf(path: string, language: Language): string {
  if (language === 'es') return path;
  return path === '/' ? '/pt' : `/pt${path}`;
}
