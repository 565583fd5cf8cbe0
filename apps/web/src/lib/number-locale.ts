import { numberLocaleOf, type Language, type NumberLocale } from '@tradebot/contract';
import { useEffect, useSyncExternalStore } from 'react';
import { useGeoStore } from '../stores/geo';
import { storedItem } from './storage';

// The number locale (language plus the reader's country) is the contract's, shared with the
// server's own pages (decision 089).
export type { NumberLocale } from '@tradebot/contract';

// The country, once learned from the geo lookup, is kept for the next visits: the dashboard's
// first render already writes amounts the reader's way, without a lookup first.
const countryItem = storedItem('local', 'tradebot.country');
let country = '';
let read = false;
const listeners = new Set<() => void>();

function currentCountry(): string {
  if (!read) {
    read = true;
    const stored = countryItem.get() ?? '';
    country = /^[A-Z]{2}$/.test(stored) ? stored : '';
  }
  return country;
}

/** Records the reader's country (the geo store calls it when it learns one). */
export function rememberCountry(code: string): void {
  if (!/^[A-Z]{2}$/.test(code) || code === currentCountry()) return;
  country = code;
  countryItem.set(code);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

useGeoStore.subscribe((state) => {
  rememberCountry(state.countryCode);
});

/**
 * The locale for `language` on this reader's screen. A prerendered page and the render that
 * hydrates it use the language alone (the server cannot know the country), and React renders
 * again with the country right after hydrating; a screen rendered in the browser uses the
 * country at once.
 */
export function useNumberLocale(language: Language): NumberLocale {
  return useSyncExternalStore(
    subscribe,
    () => numberLocaleOf(language, currentCountry()),
    () => language,
  );
}

/** Looks the country up once, after the page is on screen, when none is known yet. */
export function useLearnCountry(): void {
  useEffect(() => {
    if (!currentCountry()) void useGeoStore.getState().ensureCountryCode();
  }, []);
}
