import { escape as escapeHtml } from 'html-escaper';
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { isRobotBitcoinSegment, promoBrokerId, promoBrokerSegment } from '@tradebot/contract';
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

/**
 * The broker directory's name for an id (docs/decisions/074), null when it has none or the robot
 * does not work with it (a landing invites to connect an account there: issue 39, decision 158).
 */
export type PromoBrokerLookup = (id: string) => Promise<string | null>;

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
 * The first of es and pt in the browser's preference order (RFC 9110 Accept-Language: q
 * weights, then order; `pt-BR` is pt), or null when it names neither.
 */
export function browserLanguage(header: string | undefined): PageLanguage | null {
  if (!header) return null;
  const ranges = header
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [range = '', ...parameters] = part.trim().toLowerCase().split(';');
      const q = parameters.map((parameter) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(parameter));
      const weight = q.find((match) => match !== null)?.[1];
      return { language: range.trim().split('-')[0], weight: Number(weight ?? 1), index };
    })
    .filter((range) => range.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const range of ranges) {
    if (range.language === 'es' || range.language === 'pt') return range.language;
  }
  return null;
}

/**
 * Serves the built web app (docs/decisions/053, 054):
 * - files under dist/ (hashed assets cached for a year, the rest revalidated), each sent as the
 *   .br or .gz the build wrote next to it when the browser accepts one; never a source map;
 * - every public page as the HTML prerendered for its address (`/…` Spanish, `/pt/…`
 *   Portuguese), a reader whose stored choice is Portuguese (the `language` cookie), or who
 *   has no stored choice and whose browser prefers Portuguese, sent from `/…` to `/pt/…`; the logged-in screens as the app's shell; a robotbitcoin landing for a
 *   linkable broker of the directory (promoBrokerName) with its name; anything else as the not-found
 *   page with a 404. The API's unknown paths still get the API's 404.
 * Returns false when there is no build to serve (development with Vite's own server).
 */
export async function registerWebApp(
  app: FastifyInstance,
  distDir: string,
  promoBrokerName: PromoBrokerLookup,
): Promise<boolean> {
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

  const answerPage = async (request: FastifyRequest, reply: FastifyReply) => {
    const [rawPath = '/', query] = request.url.split('?', 2);
    const search = query === undefined ? '' : `?${query}`;
    if (rawPath === '/core-api' || rawPath.startsWith('/core-api/')) {
      reply.callNotFound();
      return reply;
    }

    const address = splitLanguage(rawPath);
    if (address.path.length > 1 && address.path.endsWith('/')) {
      // One leading slash (issue 37, point 5): `//host/…` answered `location: //host/…` sends the
      // browser to another host, and browsers read a backslash there as a slash.
      const trimmed = `/${address.path.replace(/^[/\\]+/, '').replace(/\/+$/, '')}`;
      return reply.redirect(`${withLanguage(address.language ?? 'es', trimmed)}${search}`, 301);
    }
    reply.header('vary', 'Cookie, Accept-Language');
    const stored = languageCookie.exec(request.headers.cookie ?? '')?.[1] as
      PageLanguage | undefined;
    // The stored choice wins; a first visit (no choice yet) follows the browser's languages.
    // Crawlers send no Accept-Language, so they index the Spanish pages at `/…` (decision 075).
    const wanted = stored ?? browserLanguage(request.headers['accept-language']);
    if (address.language === null && wanted === 'pt') {
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
      const id = promoBrokerId(segment);
      if (id === null) return sendPage(reply, manifest.robotBitcoin[language].generic, 200);
      // Only the directory's brokers have a landing, under their own name: the address is
      // never shown (a phishing headline on our domain otherwise).
      const broker = await promoBrokerName(id);
      if (broker !== null) {
        const html = robotBitcoinTemplates[language]
          .replaceAll(manifest.placeholder.name, escapeHtml(broker))
          .replaceAll(manifest.placeholder.segment, promoBrokerSegment(id));
        return reply
          .header('cache-control', 'no-cache')
          .type('text/html; charset=utf-8')
          .send(html);
      }
    }
    return sendPage(reply, manifest.notFound[language], 404);
  };
  app.get('/*', answerPage);

  return true;
}
