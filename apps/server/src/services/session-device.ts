import type { SessionDevice } from '@tradebot/contract';

/** The families a User-Agent names, most specific first (Edge and Opera also say Chrome). */
const browsers: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bChrome\/|\bCriOS\/|\bChromium\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];
const systems: [RegExp, string][] = [
  [/\bWindows\b/, 'Windows'],
  [/\biPhone\b|\biPad\b|\biPod\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

const firstMatch = (userAgent: string, table: [RegExp, string][]) =>
  table.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null;

/**
 * The approximate device of a session, from the User-Agent kept at sign-in (decision 080): a
 * browser family and a system, enough for the owner to recognise it; never a version or
 * anything finer.
 */
export function deviceOf(userAgent: string | null): SessionDevice {
  if (!userAgent) return { browser: null, os: null, mobile: false };
  return {
    browser: firstMatch(userAgent, browsers),
    os: firstMatch(userAgent, systems),
    mobile: /\bMobile\b|\bAndroid\b|\biPhone\b/.test(userAgent),
  };
}
