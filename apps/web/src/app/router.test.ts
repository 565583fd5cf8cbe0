import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { liveAccountLayoutId, routes, serverStateLayoutId } from './router';

/**
 * A screen that calls TanStack Query's hooks needs a QueryClientProvider above it: one of the two
 * layouts that give it, or a provider the screen renders itself (the public pages that load the
 * library only with their own chunk, decision 090). Outside both, the page throws "No QueryClient
 * set" and shows its error boundary, which unit tests of a component wrapped in its own provider
 * do not see (issue 19: the linking page, 2026-11-26).
 */
const appDir = path.dirname(new URL(import.meta.url).pathname);
const hooks =
  /\buse(Query|Queries|Mutation|QueryClient|SuspenseQuery|InfiniteQuery|IsFetching|IsMutating)\(/;

function resolveImport(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * The files a module imports statically, transitively, within the app (not dynamic imports). A
 * file that renders its own QueryClientProvider is taken to call the hooks below it: what it
 * imports is not followed (the home page's section on real prices, decision 142).
 */
function staticImports(entry: string): Set<string> {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() ?? '';
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    if (file !== entry && source.includes('<QueryClientProvider')) continue;
    for (const match of source.matchAll(/^(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gms)) {
      const next = resolveImport(file, match[1] ?? '');
      if (next) queue.push(next);
    }
  }
  return seen;
}

/** Each page of router.tsx: its path and the module its screen is loaded from. */
function pageModules(): Map<string, string> {
  const source = readFileSync(path.join(appDir, 'router.tsx'), 'utf8');
  const pages = new Map<string, string>();
  const pattern = /page\(\s*'([^']*)',\s*\(\)\s*=>\s*import\('([^']+)'\)/g;
  for (const match of source.matchAll(pattern)) {
    const module = resolveImport(path.join(appDir, 'router.tsx'), match[2] ?? '');
    if (module) pages.set(match[1] ?? '', module);
  }
  // The broker search's five steps share one screen (`stepPages`): its first step stands for all.
  const steps = /const brokerSteps = \(\) => import\('([^']+)'\)/.exec(source)?.[1];
  const stepModule = steps && resolveImport(path.join(appDir, 'router.tsx'), steps);
  if (stepModule) pages.set('searching-broker', stepModule);
  return pages;
}

/** Each route path with whether a layout giving the query client is above it. */
function provided(list: RouteObject[], above = false, into = new Map<string, boolean>()) {
  for (const route of list) {
    const inside = above || route.id === serverStateLayoutId || route.id === liveAccountLayoutId;
    if (route.path !== undefined && !route.children) into.set(route.path, inside);
    if (route.children) provided(route.children, inside, into);
  }
  return into;
}

describe('server state in the router', () => {
  const pages = pageModules();
  const layouts = provided(routes);

  it('finds the pages of router.tsx', () => {
    expect(pages.size).toBeGreaterThan(20);
    expect(pages.get('searching-broker')).toMatch(/broker\/routes\/broker-step\.tsx$/);
    expect(pages.get('link-account')).toMatch(/linking\/routes\/link-account\.tsx$/);
  });

  it('puts every screen that uses TanStack Query under a provider', () => {
    const unprovided: string[] = [];
    for (const [routePath, module] of pages) {
      if (layouts.get(routePath)) continue;
      if (readFileSync(module, 'utf8').includes('<QueryClientProvider')) continue;
      // A file that renders its own provider is taken to call the hooks below it.
      const users = [...staticImports(module)].filter((file) => {
        const source = readFileSync(file, 'utf8');
        return hooks.test(source) && !source.includes('<QueryClientProvider');
      });
      if (users.length > 0) {
        unprovided.push(`${routePath}: ${users.map((f) => path.relative(appDir, f)).join(', ')}`);
      }
    }
    expect(unprovided).toEqual([]);
  });

  it('gives the linking pages the query client (their cTrader card and return page read it)', () => {
    expect(layouts.get('link-account')).toBe(true);
    expect(layouts.get('link-account/ctrader/callback')).toBe(true);
  });
});
