import Bowser from 'bowser';
import type { SessionDevice } from '@tradebot/contract';

/**
 * Bowser's names, shortened where they repeat what the system says or name the vendor
 * ("Samsung Internet for Android en Android", "Microsoft Edge").
 */
function shortName(name: string | undefined): string | null {
  const short = (name ?? '')
    .replace(/^Microsoft /, '')
    .replace(/ for (?:Android|iOS)$/, '')
    .trim();
  return short === '' ? null : short;
}

/**
 * The approximate device of a session, from the User-Agent kept at sign-in (decision 080): a
 * browser family and a system, enough for the owner to recognise it; never a version or
 * anything finer. Parsed by Bowser (decision 156): the hand-written patterns it replaces missed
 * every browser they did not list (headless Chrome read as "Linux" alone).
 */
export function deviceOf(userAgent: string | null): SessionDevice {
  if (!userAgent) return { browser: null, os: null, mobile: false };
  const parsed = Bowser.parse(userAgent);
  return {
    browser: shortName(parsed.browser.name),
    os: shortName(parsed.os.name),
    mobile: parsed.platform.type === 'mobile' || parsed.platform.type === 'tablet',
  };
}
