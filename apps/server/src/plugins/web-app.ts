import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { brokerNameFromSegment, isRobotBitcoinSegment } from '@tradebot/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** dist/_pages/pages.json, written by the web build (apps/web/scripts/prerender.ts). */
interface PagesManifest {
  pages: Record<PageLanguage, Record<string, string>>;
  robotBitcoin: Record<PageLanguage, { template: string; generic: string }>;
  notFound: Record<PageLanguage, string>;
  app: Record<PageLanguage, string>;
  appPaths: string[];
  placeholder: { segment: string; name: string };
}
type PageLanguage = 'es' | 'pt';

/** Portuguese pages live under /pt (docs/decisions/053); Spanish, the default, at the root. */
const portuguesePrefix = '/pt';
const languageCookie = /(?:^|;\s*)language=(es|pt)(?:;|$)/;
const promoPath = /^\/promo\/([^/]+)$/;

function splitLanguage(pathname: string): { language: PageLanguage | null; path: string } {
  if (pathname === portuguesePrefix || pathname.startsWith(`${portuguesePrefix}/`)) {
    return { language: 'pt', path: pathname.slice(portuguesePrefix.length) || '/' };
  }
  return { language: null, path: pathname };
}

function withLanguage(language: PageLanguage, pagePath: string): string {
  if (language === 'es') return pagePath;
  return pagePath === '/' ? portuguesePrefix : `${portuguesePrefix}${pagePath}`;
}

/**
 * Serves the built web app (docs/decisions/053, 054):
 * - files under dist/ (hashed assets cached for a year, the rest revalidated), each sent as the
 *   .br or .gz the build wrote next to it when the browser accepts one; never a source map;
 * - every public page as the HTML prerendered for its address (`/…` Spanish, `/pt/…`
 *   Portuguese), a reader whose stored choice is Portuguese (the `language` cookie) sent from
 *   `/…` to `/pt/…`; the logged-in screens as the app's shell; anything else as the not-found
 *   page with a 404. The API's unknown paths still get the API's 404.
 * Returns false when there is no build to serve (development with Vite's own server).
 */
export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<boolean> {
  const pagesDir = path.join(distDir, '_pages');
  const manifestFile = path.join(pagesDir, 'pages.json');
  if (!fs.existsSync(manifestFile)) {
    app.log.warn({ distDir }, 'no web build found; serving the API only');
    return false;
  }
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as PagesManifest;
  const appPaths = new Set(manifest.appPaths);
  const robotBitcoinTemplates = {
    es: fs.readFileSync(path.join(pagesDir, manifest.robotBitcoin.es.template), 'utf8'),
    pt: fs.readFileSync(path.join(pagesDir, manifest.robotBitcoin.pt.template), 'utf8'),
  };

  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    // Pages are answered below, by address; compressed copies are picked by preCompressed;
    // source maps are not served even when a debugging build wrote them.
    globIgnore: ['_pages/**', 'index.html*', '**/*.br', '**/*.gz', '**/*.map'],
    allowedPath: (pathname) => !pathname.endsWith('.map'),
    preCompressed: true,
    index: false,
    cacheControl: false,
    setHeaders(reply, filePath) {
      const relative = path.relative(distDir, filePath);
      reply.header(
        'cache-control',
        relative.startsWith(`assets${path.sep}`)
          ? 'public, max-age=31536000, immutable'
          : 'no-cache',
      );
    },
  });

  const sendPage = (reply: FastifyReply, file: string, status: number) =>
    reply.code(status).header('cache-control', 'no-cache').sendFile(file, pagesDir);

  const answerPage = (request: FastifyRequest, reply: FastifyReply) => {
    const [rawPath = '/', query] = request.url.split('?', 2);
    const search = query === undefined ? '' : `?${query}`;
    if (rawPath === '/core-api' || rawPath.startsWith('/core-api/')) {
      reply.callNotFound();
      return reply;
    }

    const address = splitLanguage(rawPath);
    if (address.path.length > 1 && address.path.endsWith('/')) {
      const trimmed = address.path.replace(/\/+$/, '') || '/';
      return reply.redirect(`${withLanguage(address.language ?? 'es', trimmed)}${search}`, 301);
    }
    reply.header('vary', 'Cookie');
    const stored = languageCookie.exec(request.headers.cookie ?? '')?.[1] as
      PageLanguage | undefined;
    if (address.language === null && stored === 'pt') {
      return reply
        .header('cache-control', 'no-store')
        .redirect(`${withLanguage('pt', address.path)}${search}`, 302);
    }
    const language = address.language ?? 'es';

    const page = manifest.pages[language][address.path];
    if (page) return sendPage(reply, page, 200);
    // The support console is the app's shell too, at any of its addresses (decision 057).
    const adminPath = address.path === '/admin' || address.path.startsWith('/admin/');
    if (appPaths.has(address.path) || adminPath) {
      return sendPage(reply, manifest.app[language], 200);
    }

    const segment = promoPath.exec(address.path)?.[1];
    if (segment !== undefined && isRobotBitcoinSegment(segment)) {
      const broker = brokerNameFromSegment(segment);
      if (broker === null) return sendPage(reply, manifest.robotBitcoin[language].generic, 200);
      // Letters, digits and spaces only: safe in text, in attributes and, encoded, in addresses.
      const slug = encodeURIComponent(broker.toLowerCase().replaceAll(' ', '-'));
      const html = robotBitcoinTemplates[language]
        .replaceAll(manifest.placeholder.name, broker)
        .replaceAll(manifest.placeholder.segment, `robotbitcoin-${slug}`);
      return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
    }
    return sendPage(reply, manifest.notFound[language], 404);
  };
  app.get('/*', answerPage);

  return true;
}
