import type { Language } from '@tradebot/contract';
import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router';
import { basenameOf } from '../lib/language-url';
import { routes } from './router';

/** Ids by position, fixed before any router exists, so hydration data can name routes. */
function assignIds(list: RouteObject[], parent: string): void {
  list.forEach((route, index) => {
    const id = parent === '' ? String(index) : `${parent}-${String(index)}`;
    route.id ??= id;
    if (route.children) assignIds(route.children, id);
  });
}
assignIds(routes, '');

export { routes };

/**
 * Loads the lazy parts (screen and catalogues) of the routes `path` (without the language
 * prefix) matches, once, so that a router, or the prerenderer, starts with them in place.
 */
export async function resolveRoutes(path: string): Promise<RouteObject[]> {
  const matches = matchRoutes(routes, path) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const resolved = await route.lazy();
      Object.assign(route, resolved, { lazy: undefined });
    }),
  );
  return matches.map((match) => match.route);
}

/**
 * The app's router in `language` (its address prefix is the basename). With `hydrated`, the
 * routes of the page on screen (resolved, guards already run): it starts on them without
 * running loaders or showing the fallback, which is what hydrating a prerendered page needs.
 */
export function createAppRouter(language: Language, hydrated?: RouteObject[]) {
  const basename = basenameOf(language);
  return createBrowserRouter(routes, {
    ...(basename ? { basename } : {}),
    ...(hydrated
      ? {
          hydrationData: {
            loaderData: Object.fromEntries(
              hydrated
                .filter((route) => route.loader)
                .map((route): [string, null] => [route.id ?? '', null]),
            ),
          },
        }
      : {}),
  });
}
