import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { plans } from '@tradebot/contract/constants';
import { catalogueText } from './support/catalogue';
import { appStarted, usePage } from './support/page';
import { addressOf, publicPages, type Language } from './support/public-pages';

const baseURL = inject('baseURL');
const languages: Language[] = ['es', 'pt'];
const cases = publicPages.flatMap((page) => languages.map((language) => ({ ...page, language })));

/** The text a reader without JavaScript sees: tags dropped, entities decoded. */
function visibleText(html: string): string {
  const body = html.slice(html.indexOf('<body'));
  return body
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

function headLinks(html: string, rel: string): { hreflang?: string; href: string }[] {
  const links = [...html.matchAll(/<link\b[^>]*>/g)].map((match) => match[0]);
  return links
    .filter((link) => link.includes(`rel="${rel}"`))
    .map((link) => ({
      href: /href="([^"]*)"/.exec(link)?.[1] ?? '',
      ...(/hreflang="([^"]*)"/.test(link)
        ? { hreflang: /hreflang="([^"]*)"/.exec(link)?.[1] }
        : {}),
    }));
}

function metaContent(html: string, attribute: string, name: string): string | undefined {
  const tag = [...html.matchAll(/<meta\b[^>]*>/g)]
    .map((match) => match[0])
    .find((meta) => meta.includes(`${attribute}="${name}"`));
  return tag ? /content="([^"]*)"/.exec(tag)?.[1] : undefined;
}

describe('public pages as HTML, without JavaScript', () => {
  it.each(cases)('$language $path holds its text, title and language links', async (page) => {
    const address = addressOf(page.path, page.language);
    const response = await fetch(new URL(address, baseURL));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    const html = await response.text();
    const text = visibleText(html);
    expect(text).toContain(page.heading(page.language));
    if (page.text) expect(text).toContain(page.text(page.language));
    expect(html).toContain(`<html lang="${page.language}">`);
    // No inline script: the strict CSP (script-src 'self') allows only files.
    for (const script of html.matchAll(/<script\b[^>]*>/g)) expect(script[0]).toMatch(/\ssrc="/);

    const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
    expect(title.length).toBeGreaterThan(3);
    expect(title).not.toBe('Tradebot');
    expect(metaContent(html, 'name', 'description')?.length).toBeGreaterThan(40);
    expect(metaContent(html, 'property', 'og:title')).toBe(title);

    const canonical = headLinks(html, 'canonical');
    expect(canonical).toHaveLength(1);
    const alternates = headLinks(html, 'alternate');
    expect(alternates.map((link) => link.hreflang).sort()).toEqual(['es', 'pt', 'x-default']);
    for (const link of [...canonical, ...alternates]) expect(link.href).toMatch(/^https?:\/\//);
    const pathOf = (href: string) => new URL(href).pathname;
    const spanish = alternates.find((link) => link.hreflang === 'es')?.href ?? '';
    const portuguese = alternates.find((link) => link.hreflang === 'pt')?.href ?? '';
    expect(pathOf(canonical[0]?.href ?? '')).toBe(address);
    expect(pathOf(spanish)).toBe(addressOf(page.path, 'es'));
    expect(pathOf(portuguese)).toBe(addressOf(page.path, 'pt'));
  });

  it('an unknown address answers 404 with the not-found page, not indexed', async () => {
    for (const [address, language] of [
      ['/no-such-page', 'es'],
      ['/pt/no-such-page', 'pt'],
      ['/promo/robot-bitcoin', 'es'],
      ['/how-it-works/6', 'es'],
    ] as const) {
      const response = await fetch(new URL(address, baseURL));
      expect(response.status, address).toBe(404);
      const html = await response.text();
      expect(visibleText(html)).toContain(catalogueText(language, 'common', 'notFound.title'));
      expect(metaContent(html, 'name', 'robots')).toBe('noindex');
    }
  });

  it('logged-in screens answer the app shell, titled and not indexed', async () => {
    const response = await fetch(new URL('/pt/dashboard', baseURL));
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<html lang="pt">');
    expect(metaContent(html, 'name', 'robots')).toBe('noindex');
  });

  it('robots.txt and sitemap.xml are real files, and agree with the pages', async () => {
    const robots = await fetch(new URL('/robots.txt', baseURL));
    expect(robots.status).toBe(200);
    expect(robots.headers.get('content-type')).toContain('text/plain');
    const rules = await robots.text();
    expect(rules).toMatch(/^User-agent: \*$/m);
    expect(rules).toMatch(/^Disallow: \/core-api\/$/m);
    const sitemapUrl = /^Sitemap: (\S+)$/m.exec(rules)?.[1] ?? '';
    expect(new URL(sitemapUrl).pathname).toBe('/sitemap.xml');

    const sitemap = await fetch(new URL('/sitemap.xml', baseURL));
    expect(sitemap.status).toBe(200);
    expect(sitemap.headers.get('content-type')).toContain('xml');
    const xml = await sitemap.text();
    const locations = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map(
      (match) => new URL(match[1] ?? '').pathname,
    );
    // Every indexable page in both languages; campaign landings (any broker name) are not.
    const indexable = publicPages.filter((page) => !page.path.startsWith('/promo/robotbitcoin'));
    expect(locations.sort()).toEqual(
      indexable
        .flatMap((page) => languages.map((language) => addressOf(page.path, language)))
        .sort(),
    );
    expect(xml).toContain('hreflang="x-default"');
  });

  it.each(languages)(
    '%s terms say how to revoke the robot\u2019s permission with actions the product has (issue 23)',
    async (language) => {
      const html = await (
        await fetch(new URL(addressOf('/terms-and-conditions', language), baseURL))
      ).text();
      const text = visibleText(html);
      // Section 7 promised "unlinking", which no screen offers; it now names what exists: the
      // robot's switch, the dashboard's stop-everything button and deleting the account.
      expect(text).not.toMatch(/desvinculando/);
      expect(text).toContain(`«${catalogueText(language, 'dashboard', 'stopAll.button')}»`);
      expect(text).toContain(`«${catalogueText(language, 'common', 'nav.dashboard')}»`);
      expect(text).toContain(`«${catalogueText(language, 'account-settings', 'title')}»`);
    },
  );

  it.each(languages)(
    '%s home holds how the robot decides, the plans with prices, and the labelled example picture',
    async (language) => {
      const html = await (await fetch(new URL(addressOf('/', language), baseURL))).text();
      const text = visibleText(html);
      for (const key of ['decides.title', 'decides.honest', 'product.title', 'product.caption'])
        expect(text).toContain(catalogueText(language, 'home', key));
      for (const step of [0, 1, 2, 3, 4])
        expect(text).toContain(
          catalogueText(language, 'home', `decides.steps.${String(step)}.text`),
        );
      expect(text).toContain(catalogueText(language, 'plans', 'names.monthly'));
      const money = new Intl.NumberFormat(language === 'es' ? 'es-419' : 'pt-BR', {
        style: 'currency',
        currency: 'USD',
      });
      for (const plan of Object.values(plans))
        expect(text).toContain(money.format(plan.priceCents / 100).replace(/\s+/g, ' '));
      // The dashboard's picture: this language's files, sized, lazy, described.
      const image = /<img\b[^>]*dashboard-360[^>]*>/.exec(html)?.[0] ?? '';
      expect(image).toContain(`dashboard-360.${language}.webp`);
      expect(image).toMatch(/width="360"/);
      expect(image).toMatch(/height="640"/);
      expect(image).toContain('loading="lazy"');
      expect(image).toContain(`alt="${catalogueText(language, 'home', 'product.alt')}"`);
      const source = /<source\b[^>]*dashboard-1280[^>]*>/.exec(html)?.[0] ?? '';
      expect(source).toContain(`dashboard-1280.${language}.webp`);
      for (const file of [
        `/images/home/dashboard-360.${language}.webp`,
        `/images/home/dashboard-720.${language}.webp`,
        `/images/home/dashboard-1280.${language}.webp`,
      ]) {
        const response = await fetch(new URL(file, baseURL));
        expect(response.status, file).toBe(200);
        expect(response.headers.get('content-type'), file).toBe('image/webp');
      }
    },
  );

  it('does not serve the front end source maps, nor the build internals', async () => {
    const html = await (await fetch(new URL('/', baseURL))).text();
    const entry = /data-entry="([^"]+)"/.exec(html)?.[1] ?? '';
    expect((await fetch(new URL(entry, baseURL))).status).toBe(200);
    for (const address of [`${entry}.map`, '/_pages/pages.json', '/index.html']) {
      const response = await fetch(new URL(address, baseURL));
      expect(response.status, address).toBe(404);
      expect(response.headers.get('content-type'), address).toContain('text/html');
    }
  });
});

/**
 * Records nodes React removes from #root until hydration has taken the prerendered heading
 * over: when hydration fails, React throws the prerendered DOM away (the heading never gets a
 * fiber) and renders again, so any removal before that is a mismatch. Later removals are the
 * page at work (the track record's figures replacing its loading state).
 */
async function watchHydration(page: Page): Promise<string[]> {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.addInitScript(() => {
    const removed: string[] = [];
    Object.assign(window, { removedFromRoot: removed });
    let prerenderedHeading: Element | null = null;
    const hydrated = () =>
      prerenderedHeading !== null &&
      Object.keys(prerenderedHeading).some((key) => key.startsWith('__reactFiber$'));
    new MutationObserver((mutations) => {
      prerenderedHeading ??= document.querySelector('#root h1');
      if (hydrated()) return;
      for (const mutation of mutations) {
        const root = document.getElementById('root');
        if (!root || !(root === mutation.target || root.contains(mutation.target))) continue;
        mutation.removedNodes.forEach((node) => removed.push(node.nodeName));
      }
    }).observe(document, { childList: true, subtree: true });
  });
  return errors;
}

describe('public pages hydrate', () => {
  const state = usePage({ viewport: { width: 360, height: 740 } });

  it.each(cases)('$language $path hydrates without a mismatch', async (entry) => {
    const { page } = state;
    const errors = await watchHydration(page);
    await page.goto(addressOf(entry.path, entry.language));
    await appStarted(page);
    // The page works: the menu button (a React handler) opens the navigation.
    await page
      .getByRole('button', { name: catalogueText(entry.language, 'common', 'nav.menu') })
      .click();
    await page
      .getByRole('navigation', { name: catalogueText(entry.language, 'common', 'nav.main') })
      .waitFor();
    expect(
      await page.evaluate(
        () => (window as unknown as { removedFromRoot: string[] }).removedFromRoot,
      ),
    ).toEqual([]);
    expect(errors).toEqual([]);
    expect(await page.title()).toBe(
      await (
        await fetch(new URL(addressOf(entry.path, entry.language), baseURL))
      )
        .text()
        .then((html) => /<title>([^<]*)<\/title>/.exec(html)?.[1]?.replaceAll('&amp;', '&')),
    );
  });
  it('a stored promo code fills the register form after hydration, without a mismatch', async () => {
    const { page } = state;
    await page.goto('/promo/mesgratis?promocode=MESGRATIS');
    await appStarted(page);
    const errors = await watchHydration(page);
    await page.goto('/register');
    await appStarted(page);
    await page.waitForFunction(
      () =>
        document.querySelector<HTMLInputElement>('input[name="promocode"]')?.value === 'MESGRATIS',
    );
    expect(
      await page.evaluate(
        () => (window as unknown as { removedFromRoot: string[] }).removedFromRoot,
      ),
    ).toEqual([]);
    expect(errors.filter((text) => !text.includes('validate-promocode'))).toEqual([]);
  });
});

describe('a prerendered form before the app runs', () => {
  const state = usePage({ viewport: { width: 360, height: 740 } });

  it('takes no choice React would undo, then keeps the one made after hydration', async () => {
    const { page } = state;
    // The page's scripts are held: what shows is the prerendered HTML alone.
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/assets/**/*.js', async (route) => {
      await released;
      await route.continue();
    });
    await page.goto('/searching-broker', { waitUntil: 'domcontentloaded' });
    const country = page.getByLabel(catalogueText('es', 'broker', 'country.label'));
    const next = page.getByRole('button', { name: catalogueText('es', 'broker', 'next') });
    await country.waitFor();
    // A choice made now would be reset by hydration (React sets the value it renders), and the
    // step would then say nothing was chosen: the select and the button wait.
    expect(await country.isDisabled()).toBe(true);
    expect(await next.isDisabled()).toBe(true);
    release();
    await appStarted(page);
    await page.unroute('**/assets/**/*.js');
    // Choosing waits until the select takes input (the render right after hydration).
    await country.selectOption('AR');
    await next.click();
    await page.waitForURL('**/searching-broker/2');
    // The step's boxes wait for the app the same way; here it runs, so they take a tick.
    await page.getByLabel(catalogueText('es', 'broker', 'markets.names.stocks')).check();
    expect(
      await page.getByLabel(catalogueText('es', 'broker', 'markets.names.stocks')).isChecked(),
    ).toBe(true);
  });
});

describe('a language has its own address, and the stored choice still applies', () => {
  const state = usePage();

  it('switching language moves to the address in that language, title and links with it', async () => {
    const { page } = state;
    await page.goto('/asked-questions');
    await appStarted(page);
    await page.getByRole('button', { name: /PT/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Perguntas frequentes' }).waitFor();
    await page.waitForURL((url) => url.pathname === '/pt/asked-questions');
    expect(await page.title()).toBe('Perguntas frequentes · Tradebot');
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toMatch(
      /\/pt\/asked-questions$/,
    );
    // In-app links stay in the language.
    await page.getByRole('link', { name: 'Termos e condições' }).click();
    await page.waitForURL((url) => url.pathname === '/pt/terms-and-conditions');
    await page
      .getByRole('heading', { level: 1, name: catalogueText('pt', 'legal', 'terms.title') })
      .waitFor();
    expect(await page.title()).toBe(
      `${catalogueText('pt', 'common', 'meta.terms.title')} · Tradebot`,
    );

    // The stored choice (and its cookie) sends a Spanish address to the Portuguese one.
    await page.goto('/login');
    await page.waitForURL((url) => url.pathname === '/pt/login');
    await page
      .getByRole('heading', { level: 1, name: catalogueText('pt', 'auth', 'login.title') })
      .waitFor();

    // And back: the Spanish switch goes to the Spanish address (once the page has hydrated).
    await appStarted(page);
    await page.getByRole('button', { name: /ES/ }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page
      .getByRole('heading', { level: 1, name: catalogueText('es', 'auth', 'login.title') })
      .waitFor();
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('es');
  });

  it('a stored Portuguese choice without the cookie is applied in the browser', async () => {
    const { page, context } = state;
    await page.goto('/');
    await page.evaluate(() => {
      localStorage.setItem('language', 'pt');
    });
    await context.clearCookies();
    await page.goto('/privacy-policy?p=7');
    await page.waitForURL((url) => url.pathname === '/pt/privacy-policy' && url.search === '?p=7');
    await page
      .getByRole('heading', { level: 1, name: catalogueText('pt', 'legal', 'privacy.title') })
      .waitFor();
  });

  it('a Portuguese address wins over a stored Spanish choice, and is kept', async () => {
    const { page } = state;
    await page.goto('/');
    await appStarted(page);
    await page.goto('/pt/how-it-works/2');
    await page
      .getByRole('heading', {
        level: 1,
        name: catalogueText('pt', 'broker', 'howItWorks.steps.1.title'),
      })
      .waitFor();
    // The heading is in the prerendered HTML: the choice is stored once the app has started.
    await appStarted(page);
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('pt');
  });
});
