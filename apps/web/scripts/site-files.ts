import { languages } from '@tradebot/contract/constants';
// XML's five special characters are HTML's: html-escaper's `&#39;` is a character reference
// XML reads as `'` (docs/decisions/095).
import { escape as escapeXml } from 'html-escaper';
import { localizedPath } from '../src/lib/language-url';

/**
 * robots.txt: everything public may be crawled; the API may not. Logged-in screens say
 * noindex themselves (a robots.txt block would hide that from crawlers).
 */
export function robotsTxt(publicUrl: string): string {
  return [
    'User-agent: *',
    'Disallow: /core-api/',
    '',
    `Sitemap: ${publicUrl}/sitemap.xml`,
    '',
  ].join('\n');
}

/** sitemap.xml: each indexable page in each language, with its alternates (hreflang). */
export function sitemapXml(publicUrl: string, pagePaths: readonly string[]): string {
  const url = (language: (typeof languages)[number], pagePath: string) =>
    escapeXml(`${publicUrl}${localizedPath(language, pagePath)}`);
  const entries = pagePaths.flatMap((pagePath) =>
    languages.map((language) =>
      [
        '  <url>',
        `    <loc>${url(language, pagePath)}</loc>`,
        ...languages.map(
          (alternate) =>
            `    <xhtml:link rel="alternate" hreflang="${alternate}" href="${url(alternate, pagePath)}"/>`,
        ),
        `    <xhtml:link rel="alternate" hreflang="x-default" href="${url('es', pagePath)}"/>`,
        '  </url>',
      ].join('\n'),
    ),
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...entries,
    '</urlset>',
    '',
  ].join('\n');
}
