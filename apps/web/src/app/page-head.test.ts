import { promoBrokerPlaceholder } from '@tradebot/contract/constants';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { i18n } from '../lib/i18n';
import { escapeHtml, pageHead, pageMetaOf, privatePagePaths, publicPagePaths } from './page-head';
import { routes } from './router';
import ptCommon from '../locales/pt/common.json';

function routePaths(list: RouteObject[], parent = ''): string[] {
  return list.flatMap((route) => {
    const own = route.path === undefined ? parent : `${parent}/${route.path}`.replace(/\/+/g, '/');
    const children = route.children ? routePaths(route.children, own) : [];
    return route.path === undefined || route.children ? children : [own || '/'];
  });
}

describe('pageMetaOf', () => {
  it('knows every route of the router: a new route needs its title', () => {
    for (const path of routePaths(routes)) {
      if (path === '/*') continue;
      const concrete = path.replace(':campaign', promoBrokerPlaceholder.segment);
      expect(pageMetaOf(concrete).kind, path).not.toBe('notFound');
    }
  });

  it('lists the public pages of spec §2 and nothing logged in', () => {
    expect(publicPagePaths).toHaveLength(20);
    for (const path of publicPagePaths) expect(pageMetaOf(path).kind, path).toBe('public');
    for (const path of privatePagePaths)
      expect(pageMetaOf(path)).toMatchObject({ kind: 'private', indexable: false });
  });

  it('names broker steps and landing pages, and the rest is not found', () => {
    expect(pageMetaOf('/how-it-works/3')).toMatchObject({ key: 'howItWorks', values: { step: 3 } });
    expect(pageMetaOf('/searching-broker/')).toMatchObject({
      key: 'brokerSearch',
      values: { step: 1 },
    });
    expect(pageMetaOf('/promo/robotbitcoin-')).toMatchObject({ key: 'robotBitcoinGeneric' });
    // A broker's landing exists only as the server sends it, for a broker of its directory; the
    // prerender renders the template with the placeholder (the browser's side is in e2e).
    expect(pageMetaOf(`/promo/${promoBrokerPlaceholder.segment}`)).toMatchObject({
      key: 'robotBitcoin',
      values: { broker: promoBrokerPlaceholder.name },
      indexable: false,
      canonicalPath: `/promo/${promoBrokerPlaceholder.segment}`,
    });
    for (const path of [
      '/promo/other',
      '/promo/robotbitcoin-estafa-garantizada-1000-por-ciento',
      '/how-it-works/6',
      '/nope',
    ]) {
      expect(pageMetaOf(path).kind, path).toBe('notFound');
    }
  });
});

describe('pageHead', () => {
  i18n.addResourceBundle('pt', 'common', ptCommon, true, true);

  it('gives a public page its title, description, canonical and language links', () => {
    const head = pageHead('/asked-questions', 'pt', i18n.t, 'https://app.example.com');
    expect(head.title).toBe('Perguntas frequentes · Tradebot');
    expect(head.markup).toContain(
      '<link data-page-head rel="canonical" href="https://app.example.com/pt/asked-questions">',
    );
    expect(head.markup).toContain('hreflang="es" href="https://app.example.com/asked-questions"');
    expect(head.markup).toContain(
      'hreflang="x-default" href="https://app.example.com/asked-questions"',
    );
    expect(head.markup).toContain('<meta data-page-head property="og:locale" content="pt_BR">');
    expect(head.markup).not.toContain('noindex');
  });

  it('titles a logged-in screen and keeps it out of search engines', () => {
    const head = pageHead('/dashboard', 'es', i18n.t, 'https://app.example.com');
    expect(head.title).toBe('Mi cuenta · Tradebot');
    expect(head.markup).toBe('<meta data-page-head name="robots" content="noindex">');
  });

  it('escapes what it writes into attributes', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;',
    );
  });
});
