import { languages } from '@tradebot/contract/constants';
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

function escapeXml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
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
