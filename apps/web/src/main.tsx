import { defaultLanguage } from '@tradebot/contract/constants';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { createAppRouter, resolveRoutes } from './app/app-router';
import { runGuards } from './app/guard-loader';
import { followRefusedSessions } from './app/session-refused';
import { i18n, onLanguageSwitched, startI18n, storedLanguage } from './lib/i18n';
import { localizedPath, splitLanguagePath } from './lib/language-url';
import type { RouteFlags } from './lib/route-paths';
import { storeTrackingParameters } from './lib/tracking';
import { useAppStore } from './stores/app';
import './components/ui/tokens.css';
import './components/ui/base.css';

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

// spec §4: tracking parameters are read from the query string at startup.
storeTrackingParameters(window.location.search);

// The address's language when it names one, else the stored choice, else Spanish
// (docs/decisions/053). The server already sent a reader whose cookie says pt to /pt/…; a
// browser without the cookie is moved here.
const address = splitLanguagePath(window.location.pathname);
const language = address.language ?? storedLanguage() ?? defaultLanguage;
if (address.language === null && language !== defaultLanguage) {
  const { search, hash } = window.location;
  window.history.replaceState(null, '', `${localizedPath(language, address.path)}${search}${hash}`);
}

/**
 * Lets the browser run between the start's steps, so that loading the app is a few short
 * tasks rather than one long one that would hold up a tap (Lighthouse's blocking time).
 */
const yieldToBrowser = () =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, 0);
  });

useAppStore.getState().setLanguage(language);
i18n.on('languageChanged', (changed) => {
  useAppStore.getState().setLanguage(changed);
});
await startI18n(language);
await yieldToBrowser();

const matched = await resolveRoutes(address.path);
await yieldToBrowser();
// A page prerendered in this language hydrates once its guards allow it (they may wait
// for the settings of a stored session); anything else renders on the client.
const prerendered = container.dataset.prerendered === language;
const flags: RouteFlags = (matched.at(-1)?.handle ?? {}) as RouteFlags;
const hydrate = prerendered && (await runGuards(flags, address.path)) === null;

await yieldToBrowser();

let router = createAppRouter(language, hydrate ? matched : undefined);
// A session ended elsewhere while its pages are on screen: say so and go to the login.
followRefusedSessions(() => router.revalidate());
// Keyed by language: a switch starts a fresh router tree under the new address prefix.
const app = (key: string) => (
  <StrictMode key={key}>
    <RouterProvider router={router} />
  </StrictMode>
);

const hydrateInTransition = (element: ReturnType<typeof app>): Root => {
  // A transition: hydration yields to the browser between chunks instead of one long task.
  const created: { root?: Root } = {};
  startTransition(() => {
    created.root = hydrateRoot(container, element, {
      onRecoverableError(error) {
        // The prerendered page differs from the client's render (e2e checks that none does).
        console.error('[hydration]', error);
      },
    });
  });
  if (!created.root) throw new Error('hydrateRoot returned nothing');
  return created.root;
};

const root = hydrate ? hydrateInTransition(app(language)) : createRoot(container);
if (!hydrate) root.render(app(language));

// A language switch moves to the same page at the language's address: a new router under the
// new prefix, on the routes already on screen (no loader, no fallback).
onLanguageSwitched((next) => {
  void (async () => {
    // The router's location still carries the old language's prefix.
    const { pathname, search, hash } = router.state.location;
    const path = splitLanguagePath(pathname).path;
    window.history.replaceState(null, '', `${localizedPath(next, path)}${search}${hash}`);
    const previous = router;
    router = createAppRouter(next, await resolveRoutes(path));
    root.render(app(next));
    previous.dispose();
  })();
});
