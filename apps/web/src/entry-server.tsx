import type { Language } from '@tradebot/contract';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import {
  createStaticHandler,
  createStaticRouter,
  StaticRouterProvider,
  type DataStrategyFunction,
} from 'react-router';
import { resolveRoutes, routes } from './app/app-router';
import { pageHead, privatePagePaths, publicPagePaths, type PageHead } from './app/page-head';
import { changeLanguage, i18n, startI18n } from './lib/i18n';
import { basenameOf, localizedPath } from './lib/language-url';

/**
 * The build-time renderer (docs/decisions/053): scripts/prerender.ts renders each public page
 * with it, in each language, into the HTML the server sends. It is never served.
 */

/** The catalogues start in Spanish; each page loads its own (see `renderPage`). */
export async function prepare(): Promise<void> {
  await startI18n('es');
}

// The guards run in the browser (a visitor's stored session): at build time every page is
// rendered as a visitor sees it, without its loader.
const skipLoaders: DataStrategyFunction = async ({ matches }) => {
  const entries = await Promise.all(
    matches.map(async (match) => [match.route.id, await match.resolve(() => null)] as const),
  );
  return Object.fromEntries(entries);
};

export interface RenderedPage {
  html: string;
  head: PageHead;
}

/** `path` (without the language prefix) in `language`: the root's HTML and the head. */
export async function renderPage(
  path: string,
  language: Language,
  publicUrl: string,
): Promise<RenderedPage> {
  // Resolving the page's routes asks for its catalogues (each route lists them); switching the
  // language then loads every catalogue asked for so far in that language, so a page rendered
  // in Spanish first and in Portuguese later has both.
  await resolveRoutes(path);
  await changeLanguage(language);
  const basename = basenameOf(language);
  const handler = createStaticHandler(routes, basename ? { basename } : {});
  const context = await handler.query(
    new Request(new URL(localizedPath(language, path), publicUrl)),
    { dataStrategy: skipLoaders },
  );
  if (context instanceof Response) {
    throw new Error(`prerendering ${path} answered ${String(context.status)}`);
  }
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToString(
    <StrictMode key={language}>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </StrictMode>,
  );
  return { html, head: pageHead(path, language, i18n.t, publicUrl) };
}

/** The shell of the logged-in screens, which render in the browser: a title, never indexed. */
export function appShellHead(language: Language): PageHead {
  return {
    language,
    title: i18n.t('brand', { lng: language }),
    markup: '<meta data-page-head name="robots" content="noindex">',
  };
}

/** The app's route table: e2e/screens.e2e.ts checks that every route has a screen visit. */
export { privatePagePaths, publicPagePaths, routes };
