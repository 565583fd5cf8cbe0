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

/** Every public route of spec §2 (for the robotbitcoin landing, the generic one). */
export const publicPages: PublicPage[] = [
  { path: '/', ...entry('home', 'title', 'lead') },
  { path: '/asked-questions', ...entry('faq', 'title', 'lead') },
  { path: '/terms-and-conditions', ...entry('legal', 'terms.title', 'terms.intro') },
  { path: '/privacy-policy', ...entry('legal', 'privacy.title', 'privacy.intro') },
  { path: '/track-record', ...entry('track-record', 'title', 'lead') },
  ...[1, 2, 3, 4, 5].map((step) => ({
    path: step === 1 ? '/searching-broker' : `/searching-broker/${String(step)}`,
    ...entry('broker', `steps.${String(step - 1)}.title`, `steps.${String(step - 1)}.help`),
  })),
  // The same pages, each first explaining a part of the product (decision 159).
  ...[1, 2, 3, 4, 5].map((step) => ({
    path: step === 1 ? '/how-it-works' : `/how-it-works/${String(step)}`,
    ...entry(
      'broker',
      `howItWorks.steps.${String(step - 1)}.title`,
      `howItWorks.steps.${String(step - 1)}.paragraphs.1`,
    ),
  })),
  { path: '/login', ...entry('auth', 'login.title', 'login.lead') },
  { path: '/register', ...entry('auth', 'register.title', 'register.lead') },
  { path: '/forgot-password', ...entry('auth', 'forgot.title', 'forgot.lead') },
  { path: '/set-password', ...entry('auth', 'setPassword.title', 'setPassword.lead') },
  { path: '/promo/mesgratis', ...entry('promo', 'freeMonth.title', 'freeMonth.lead') },
  // Only linkable brokers have a named landing (issue 39); the demo's directory has none.
  {
    path: '/promo/robotbitcoin-',
    ...entry('promo', 'robotBitcoin.titleGeneric', 'robotBitcoin.leadGeneric'),
  },
];

/** The address of an in-app path in a language (docs/decisions/053). */
export function addressOf(path: string, language: Language): string {
  if (language === 'es') return path;
  return path === '/' ? '/pt' : `/pt${path}`;
}
