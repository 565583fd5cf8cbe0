/**
 * After `vite build` (the client) and `vite build --ssr` (the renderer), writes what the server
 * sends (docs/decisions/053, 054):
 * - dist/_pages/{es,pt}/…html: every public page rendered in each language, the robotbitcoin
 *   landing as a template for any broker, the not-found page and the logged-in app's shell;
 *   dist/_pages/pages.json says which file answers which address;
 * - dist/robots.txt and dist/sitemap.xml;
 * - a .br and a .gz next to every compressible file, so nothing is compressed per request.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { escape as escapeHtml } from 'html-escaper';
import { languages, promoBrokerPlaceholder, type Language } from '@tradebot/contract/constants';
import { compressDirectory } from './compress';
import { robotsTxt, sitemapXml } from './site-files';
import type { PageHead } from '../src/app/page-head';
import type * as Renderer from '../src/entry-server';
import { readSiteConfig } from '../site-config';

type Renderer = typeof Renderer;

const webRoot = path.resolve(import.meta.dirname, '..');
const dist = path.join(webRoot, 'dist');
const pagesDir = path.join(dist, '_pages');

/**
 * A name no broker has: the server puts a directory broker's segment and name in its place,
 * and answers any other robotbitcoin address with the not-found page (docs/decisions/074).
 */
const brokerPlaceholder = promoBrokerPlaceholder;

export interface PagesManifest {
  /** In-app path -> file under _pages/, per language. */
  pages: Record<Language, Record<string, string>>;
  robotBitcoin: Record<Language, { template: string; generic: string }>;
  notFound: Record<Language, string>;
  /** The shell of the logged-in screens (rendered in the browser). */
  app: Record<Language, string>;
  /** In-app paths of the logged-in screens. */
  appPaths: readonly string[];
  placeholder: typeof brokerPlaceholder;
}

function fileOf(pagePath: string): string {
  return pagePath === '/' ? 'index.html' : `${pagePath.slice(1)}.html`;
}

/**
 * The page's text and styles come with the HTML; the JavaScript only hydrates it, so it starts
 * after the first paint (public/start.js, docs/decisions/054) instead of from <head>: Vite's
 * module script and preload links become start.js's data.
 */
function withScriptsAfterFirstPaint(template: string): string {
  const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/.exec(template);
  if (!entry?.[1]) throw new Error('dist/index.html has no module script');
  const preloads = [
    ...template.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g),
  ];
  let html = template.replace(entry[0], '');
  for (const preload of preloads) html = html.replace(preload[0], '');
  const hrefs = preloads.map((preload) => preload[1]).join(' ');
  const start = `<script src="/start.js" data-entry="${entry[1]}" data-preload="${hrefs}" defer></script>`;
  return html.replace('</head>', `  ${start}\n  </head>`);
}

function documentOf(template: string, head: PageHead, root: string): string {
  const html = template
    .replace(/<html lang="[^"]*">/, `<html lang="${head.language}">`)
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(head.title)}</title>`)
    .replace('</head>', `  ${head.markup}\n  </head>`)
    .replace('<div id="root"></div>', root);
  if (!html.includes(root)) throw new Error('dist/index.html has no <div id="root"></div>');
  return html;
}

async function write(relative: string, content: string): Promise<string> {
  const file = path.join(pagesDir, relative);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, content);
  return relative;
}

async function main(): Promise<void> {
  process.env.NODE_ENV = 'production';
  const site = readSiteConfig(process.env);
  const template = withScriptsAfterFirstPaint(
    await fs.readFile(path.join(dist, 'index.html'), 'utf8'),
  );
  const renderer = (await import(
    pathToFileURL(path.join(webRoot, 'dist-ssr/entry-server.js')).href
  )) as Renderer;
  await renderer.prepare();
  await fs.rm(pagesDir, { recursive: true, force: true });

  const manifest: PagesManifest = {
    pages: { es: {}, pt: {} },
    robotBitcoin: {} as PagesManifest['robotBitcoin'],
    notFound: {} as PagesManifest['notFound'],
    app: {} as PagesManifest['app'],
    appPaths: renderer.privatePagePaths,
    placeholder: brokerPlaceholder,
  };

  const render = async (pagePath: string, language: Language, file: string, rootData = '') => {
    const page = await renderer.renderPage(pagePath, language, site.publicUrl);
    const root = `<div id="root" data-prerendered="${language}"${rootData}>${page.html}</div>`;
    return write(`${language}/${file}`, documentOf(template, page.head, root));
  };

  for (const language of languages) {
    for (const pagePath of renderer.publicPagePaths) {
      manifest.pages[language][pagePath] = await render(pagePath, language, fileOf(pagePath));
    }
    manifest.robotBitcoin[language] = {
      template: await render(
        `/promo/${brokerPlaceholder.segment}`,
        language,
        'promo/robotbitcoin-template.html',
        // What the browser reads to render the same landing (apps/web/src/lib/promo-broker.ts).
        ` data-broker="${brokerPlaceholder.name}" data-broker-segment="${brokerPlaceholder.segment}"`,
      ),
      generic: await render('/promo/robotbitcoin-', language, 'promo/robotbitcoin.html'),
    };
    manifest.notFound[language] = await render('/404', language, '404.html');
    // The logged-in screens render in the browser: a shell in the language, not indexed.
    manifest.app[language] = await write(
      `${language}/app.html`,
      documentOf(template, renderer.appShellHead(language), '<div id="root"></div>'),
    );
  }
  await write('pages.json', JSON.stringify(manifest, null, 2));

  await fs.writeFile(path.join(dist, 'robots.txt'), robotsTxt(site.publicUrl));
  await fs.writeFile(
    path.join(dist, 'sitemap.xml'),
    sitemapXml(site.publicUrl, renderer.publicPagePaths),
  );
  const compressed = await compressDirectory(dist);
  console.log(
    `prerendered ${String(renderer.publicPagePaths.length)} public pages in ${languages.join(', ')}; ` +
      `compressed ${String(compressed)} files (.br, .gz)`,
  );
}

await main();
