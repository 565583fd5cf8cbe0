import { escape as escapeHtml } from 'html-escaper';
import type { Language } from '@tradebot/contract';
import { isRobotBitcoinSegment, languages, promoBrokerId } from '@tradebot/contract/constants';
import type { TFunction } from 'i18next';
import { localizedPath } from '../lib/language-url';
import { servedPromoBroker } from '../lib/promo-broker';

/**
 * Each route's title, and for the public pages (spec §2) their description, canonical address,
 * language alternates and Open Graph tags (docs/decisions/053). The prerender writes them into
 * each page's <head>; on the client `applyPageHead` keeps them in step with the route.
 */

/** Public pages with one address each (and one more in Portuguese). */
const publicPages: Record<string, string> = {
  '/': 'home',
  '/asked-questions': 'faq',
  '/terms-and-conditions': 'terms',
  '/privacy-policy': 'privacy',
  '/track-record': 'trackRecord',
  '/login': 'login',
  '/register': 'register',
  '/forgot-password': 'forgotPassword',
  '/set-password': 'setPassword',
  '/promo/mesgratis': 'freeMonth',
};

/** Logged-in screens: a title, never indexed. */
const privatePages: Record<string, string> = {
  '/contact': 'contact',
  '/payment': 'payment',
  '/payment/return': 'paymentReturn',
  '/link-account': 'linkAccount',
  '/link-account/ctrader/callback': 'ctraderCallback',
  '/dashboard': 'dashboard',
  '/profile-config': 'profileConfig',
  '/account-settings': 'accountSettings',
  '/confirm-email': 'confirmEmail',
  '/trading-platform-login': 'tradingPlatformLogin',
};

const stepBases = { '/searching-broker': 'brokerSearch', '/how-it-works': 'howItWorks' } as const;
const stepPattern = /^(\/searching-broker|\/how-it-works)(?:\/([2-5]))?$/;
const promoPattern = /^\/promo\/([^/]+)$/;

/** Every public page's in-app path: what the build prerenders and the sitemap lists. */
export const publicPagePaths: readonly string[] = [
  ...Object.keys(publicPages),
  ...Object.keys(stepBases).flatMap((base) => [
    base,
    ...[2, 3, 4, 5].map((step) => `${base}/${String(step)}`),
  ]),
];

/** The logged-in screens' in-app paths (the server answers them with the app's shell). */
export const privatePagePaths: readonly string[] = Object.keys(privatePages);

export type PageKind = 'public' | 'private' | 'notFound';

export interface PageMeta {
  kind: PageKind;
  /** Key under `meta.` in the common catalogue. */
  key: string;
  values?: Record<string, string | number>;
  /** Whether search engines may index it (and the sitemap lists it). */
  indexable: boolean;
  /** The page's path without a language prefix, as it is canonically spelled. */
  canonicalPath: string;
}

/** What `path` (an in-app path, without the language prefix) is, for its <head>. */
export function pageMetaOf(rawPath: string): PageMeta {
  const path = rawPath.length > 1 ? rawPath.replace(/\/+$/, '') : rawPath;
  const publicKey = publicPages[path];
  if (publicKey) return { kind: 'public', key: publicKey, indexable: true, canonicalPath: path };
  const privateKey = privatePages[path];
  if (privateKey)
    return { kind: 'private', key: privateKey, indexable: false, canonicalPath: path };
  // The support console (docs/decisions/057): an app of its own, never indexed.
  if (path === '/admin' || path.startsWith('/admin/')) {
    return { kind: 'private', key: 'admin', indexable: false, canonicalPath: path };
  }
  const step = stepPattern.exec(path);
  if (step?.[1]) {
    const base = step[1] as keyof typeof stepBases;
    return {
      kind: 'public',
      key: stepBases[base],
      values: { step: Number(step[2] ?? '1') },
      indexable: true,
      canonicalPath: path,
    };
  }
  const promo = promoPattern.exec(path)?.[1];
  if (promo && isRobotBitcoinSegment(promo)) {
    if (promoBrokerId(promo) === null) {
      return {
        kind: 'public',
        key: 'robotBitcoinGeneric',
        indexable: false,
        canonicalPath: '/promo/robotbitcoin-',
      };
    }
    // Only a broker of the directory has a landing (docs/decisions/074); any other is not found.
    const broker = servedPromoBroker(promo);
    // Landings are for campaigns, not for search engines.
    if (broker) {
      return {
        kind: 'public',
        key: 'robotBitcoin',
        values: { broker: broker.name },
        indexable: false,
        canonicalPath: `/promo/${broker.segment}`,
      };
    }
  }
  return { kind: 'notFound', key: 'notFound', indexable: false, canonicalPath: path };
}

export interface PageHead {
  language: Language;
  title: string;
  /** The tags after <title>, each marked data-page-head so the client can replace them. */
  markup: string;
}

const ogLocale: Record<Language, string> = { es: 'es_419', pt: 'pt_BR' };

// Text into HTML: html-escaper, one escaper for every page and mail we write.
export { escapeHtml };

/** The <head> of `path` in `language`, with absolute addresses on `publicUrl`. */
export function pageHead(
  path: string,
  language: Language,
  t: TFunction,
  publicUrl: string,
): PageHead {
  const meta = pageMetaOf(path);
  const brand = t('brand', { lng: language });
  const own = t(`meta.${meta.key}.title`, { ...meta.values, lng: language });
  const title = meta.key === 'home' ? own : `${own} · ${brand}`;
  const tag = (html: string) => html.replace(/^<(\w+)/, '<$1 data-page-head');
  const tags: string[] = [];
  if (meta.kind === 'public') {
    const description = t(`meta.${meta.key}.description`, { ...meta.values, lng: language });
    const url = (lang: Language) => `${publicUrl}${localizedPath(lang, meta.canonicalPath)}`;
    tags.push(
      tag(`<meta name="description" content="${escapeHtml(description)}">`),
      tag(`<link rel="canonical" href="${escapeHtml(url(language))}">`),
      ...languages.map((lang) =>
        tag(`<link rel="alternate" hreflang="${lang}" href="${escapeHtml(url(lang))}">`),
      ),
      tag(`<link rel="alternate" hreflang="x-default" href="${escapeHtml(url('es'))}">`),
      tag(`<meta property="og:type" content="website">`),
      tag(`<meta property="og:site_name" content="${escapeHtml(brand)}">`),
      tag(`<meta property="og:title" content="${escapeHtml(title)}">`),
      tag(`<meta property="og:description" content="${escapeHtml(description)}">`),
      tag(`<meta property="og:url" content="${escapeHtml(url(language))}">`),
      tag(`<meta property="og:locale" content="${ogLocale[language]}">`),
      ...languages
        .filter((lang) => lang !== language)
        .map((lang) => tag(`<meta property="og:locale:alternate" content="${ogLocale[lang]}">`)),
      tag(`<meta name="twitter:card" content="summary">`),
    );
  }
  if (!meta.indexable) tags.push(tag(`<meta name="robots" content="noindex">`));
  return { language, title, markup: tags.join('\n    ') };
}

/** Puts `head` into the live document (client-side navigation). */
export function applyPageHead(head: PageHead): void {
  document.title = head.title;
  document.documentElement.lang = head.language;
  for (const element of document.head.querySelectorAll('[data-page-head]')) element.remove();
  document.head.insertAdjacentHTML('beforeend', head.markup);
}
