import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readSiteConfig } from '../site-config';
import { compressDirectory } from './compress';
import { robotsTxt, sitemapXml } from './site-files';

describe('site configuration (docs/decisions/053)', () => {
  it('defaults to the local address and the example operator, marked as such', () => {
    const site = readSiteConfig({});
    expect(site.publicUrl).toBe('http://127.0.0.1:8080');
    expect(site.operator.example).toBe(true);
    // No address is made up for the demo's visitors (issue 39): the pages offer the contact form.
    expect(site.supportEmail).toBeNull();
    expect(site.operator.email).toMatch(/\.example$/);
  });

  it("gives visitors SUPPORT_EMAIL, else the operator's e-mail", () => {
    expect(readSiteConfig({ SUPPORT_EMAIL: 'ayuda@robots.example' }).supportEmail).toBe(
      'ayuda@robots.example',
    );
    const operator = {
      OPERATOR_LEGAL_NAME: 'Robots del Sur S.A.',
      OPERATOR_ADDRESS: 'Calle 1, Montevideo',
      OPERATOR_REGISTRATION: 'RUT 123',
      OPERATOR_EMAIL: 'legal@robots.example',
    };
    expect(readSiteConfig(operator).supportEmail).toBe('legal@robots.example');
    expect(() => readSiteConfig({ SUPPORT_EMAIL: 'not an address' })).toThrow(/SUPPORT_EMAIL/);
  });

  it('takes a real operator only whole, and an origin only', () => {
    const operator = {
      OPERATOR_LEGAL_NAME: 'Robots del Sur S.A.',
      OPERATOR_ADDRESS: 'Calle 1, Montevideo',
      OPERATOR_REGISTRATION: 'RUT 123',
      OPERATOR_EMAIL: 'legal@robots.example',
    };
    expect(readSiteConfig({ ...operator, PUBLIC_URL: 'https://app.example.com/' })).toEqual({
      publicUrl: 'https://app.example.com',
      supportEmail: 'legal@robots.example',
      operator: {
        legalName: 'Robots del Sur S.A.',
        address: 'Calle 1, Montevideo',
        registration: 'RUT 123',
        email: 'legal@robots.example',
        example: false,
      },
    });
    expect(() => readSiteConfig({ OPERATOR_LEGAL_NAME: 'Robots del Sur S.A.' })).toThrow(
      /missing OPERATOR_ADDRESS, OPERATOR_REGISTRATION, OPERATOR_EMAIL/,
    );
    expect(() => readSiteConfig({ PUBLIC_URL: 'https://app.example.com/app' })).toThrow(
      /PUBLIC_URL/,
    );
    expect(() => readSiteConfig({ PUBLIC_URL: 'ftp://app.example.com' })).toThrow(/PUBLIC_URL/);
  });
});

describe('robots.txt and sitemap.xml', () => {
  it('lets crawlers read the pages, not the API, and names the sitemap', () => {
    expect(robotsTxt('https://app.example.com')).toBe(
      'User-agent: *\nDisallow: /core-api/\n\nSitemap: https://app.example.com/sitemap.xml\n',
    );
  });

  it('lists each page in each language with its alternates', () => {
    const xml = sitemapXml('https://app.example.com', ['/', '/login']);
    expect(xml.match(/<url>/g)).toHaveLength(4);
    expect(xml).toContain('<loc>https://app.example.com/pt</loc>');
    expect(xml).toContain(
      '<xhtml:link rel="alternate" hreflang="pt" href="https://app.example.com/pt/login"/>',
    );
    expect(xml).toContain(
      '<xhtml:link rel="alternate" hreflang="x-default" href="https://app.example.com/login"/>',
    );
  });

  it("escapes XML's five special characters in every address (html-escaper, decision 095)", () => {
    const xml = sitemapXml('https://app.example.com', [`/a?b=1&c="<d>'`]);
    const escaped = 'https://app.example.com/pt/a?b=1&amp;c=&quot;&lt;d&gt;&#39;';
    expect(xml).toContain(`<loc>${escaped}</loc>`);
    expect(xml).toContain(`hreflang="pt" href="${escaped}"/>`);
    expect(xml).not.toMatch(/&(?!amp;|quot;|lt;|gt;|#39;)/);
  });
});

describe('compressDirectory', () => {
  it('writes .br and .gz copies of text files worth compressing, and only those', async () => {
    const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'tradebot-compress-'));
    try {
      const script = `console.log(${JSON.stringify('tradebot '.repeat(500))});`;
      await fs.mkdir(path.join(directory, 'assets'));
      await fs.writeFile(path.join(directory, 'assets', 'index.js'), script);
      await fs.writeFile(path.join(directory, 'robots.txt'), 'User-agent: *\n');
      await fs.writeFile(path.join(directory, 'photo.png'), Buffer.alloc(4096));
      expect(await compressDirectory(directory)).toBe(1);
      const br = await fs.readFile(path.join(directory, 'assets', 'index.js.br'));
      const gz = await fs.readFile(path.join(directory, 'assets', 'index.js.gz'));
      expect(zlib.brotliDecompressSync(br).toString()).toBe(script);
      expect(zlib.gunzipSync(gz).toString()).toBe(script);
      const names = await fs.readdir(directory);
      expect(names.sort()).toEqual(['assets', 'photo.png', 'robots.txt']);
    } finally {
      await fs.rm(directory, { recursive: true, force: true });
    }
  });
});
