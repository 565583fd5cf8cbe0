import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { helmetHeaders, registerSecurityHeaders } from '../src/plugins/security-headers';
import { useTestApp } from './helpers/app';
import { v1 } from './helpers/accounts';

/**
 * A minimal web build as apps/web/scripts/prerender.ts lays it out (decision 053): the home
 * page, the app shell for /dashboard, not found, the robotbitcoin templates, one hashed asset.
 */
const webDist = path.join(os.tmpdir(), `tradebot-test-web-${process.pid}`);
const html =
  '<!doctype html><html><head><script type="module" src="/assets/index-abc.js"></script></head><body></body></html>';
const pages = ['es/index.html', 'es/app.html', 'es/404.html', 'es/bitcoin.html'];
beforeAll(async () => {
  await fs.mkdir(path.join(webDist, 'assets'), { recursive: true });
  await fs.mkdir(path.join(webDist, '_pages/es'), { recursive: true });
  await fs.writeFile(path.join(webDist, 'index.html'), html);
  for (const page of pages) await fs.writeFile(path.join(webDist, '_pages', page), html);
  const both = <T>(value: T) => ({ es: value, pt: value });
  await fs.writeFile(
    path.join(webDist, '_pages/pages.json'),
    JSON.stringify({
      pages: both({ '/': 'es/index.html' }),
      robotBitcoin: both({ template: 'es/bitcoin.html', generic: 'es/bitcoin.html' }),
      notFound: both('es/404.html'),
      app: both('es/app.html'),
      appPaths: ['/dashboard'],
      placeholder: { segment: 'robotbitcoin-qzxbrokerqzx', name: 'Qzxbrokerqzx' },
    }),
  );
  await fs.writeFile(path.join(webDist, 'assets/index-abc.js'), 'console.log(1);');
});
afterAll(async () => {
  await fs.rm(webDist, { recursive: true, force: true });
});

function directives(header: string | string[] | number | undefined): Map<string, string> {
  return new Map(
    String(header)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name = '', ...values]) => [name, values.join(' ')]),
  );
}

describe('security headers (issue 11, finding 2)', () => {
  const context = useTestApp(() => ({ WEB_DIST_DIR: webDist, TRUST_PROXY: '10.0.0.0/8' }));

  it('the web app answers with a strict CSP, no framing, nosniff and a referrer policy', async () => {
    for (const url of ['/', '/dashboard', '/assets/index-abc.js']) {
      const response = await context.app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      const csp = directives(response.headers['content-security-policy']);
      expect(csp.get('script-src'), url).toBe("'self'");
      expect(csp.get('script-src-attr')).toBe("'none'");
      expect(csp.get('default-src')).toBe("'self'");
      expect(csp.get('connect-src')).toBe("'self'");
      expect(csp.get('object-src')).toBe("'none'");
      expect(csp.get('base-uri')).toBe("'self'");
      expect(csp.get('frame-ancestors')).toBe("'none'");
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    }
  });

  it('API answers, errors included, are nosniff too', async () => {
    for (const response of [
      await context.app.inject({ method: 'POST', url: `${v1}/country-code` }),
      await context.app.inject({ url: `${v1}/get-settings` }),
      await context.app.inject({ url: '/core-api/nothing-here' }),
    ]) {
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['content-security-policy']).toBeDefined();
    }
  });

  it('every answer carries exactly the same security headers, whatever serves it (issue 18: helmet built once)', async () => {
    // The whole set helmet writes with our options, pinned before its middleware moved to
    // being built once at start: moving it must not change a single header.
    const expected = {
      'content-security-policy':
        "default-src 'self';base-uri 'self';script-src 'self';script-src-attr 'none';style-src 'self' 'unsafe-inline';img-src 'self' data:;font-src 'self';connect-src 'self';object-src 'none';form-action 'self';frame-ancestors 'none'",
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'x-content-type-options': 'nosniff',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-frame-options': 'DENY',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    };
    const answers = [
      await context.app.inject({ url: '/' }),
      await context.app.inject({ url: '/dashboard' }),
      await context.app.inject({ url: '/assets/index-abc.js' }),
      await context.app.inject({ url: '/no-such-page' }),
      await context.app.inject({ method: 'POST', url: `${v1}/country-code` }),
      await context.app.inject({ url: `${v1}/get-settings` }),
      await context.app.inject({ url: '/core-api/nothing-here' }),
      await context.app.inject({ url: '/core-api/health' }),
    ];
    for (const response of answers) {
      const securityHeaders = Object.fromEntries(
        Object.keys(expected).map((name) => [name, response.headers[name]]),
      );
      expect(securityHeaders, response.raw.req.url).toEqual(expected);
      expect(response.headers['x-powered-by']).toBeUndefined();
      expect(response.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('sends HSTS over https as a trusted proxy reports it, and never over plain http', async () => {
    const behindTls = await context.app.inject({
      url: '/',
      remoteAddress: '10.0.0.2',
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '181.30.0.1' },
    });
    expect(behindTls.headers['strict-transport-security']).toBe(
      'max-age=31536000; includeSubDomains',
    );
    const plain = await context.app.inject({ url: '/', remoteAddress: '10.0.0.2' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    // A client (not a trusted proxy) cannot claim https for itself.
    const claimed = await context.app.inject({
      url: '/',
      remoteAddress: '203.0.113.5',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(claimed.headers['strict-transport-security']).toBeUndefined();
  });
});

describe("helmet's headers, built once (decision 083)", () => {
  it("are written through Fastify's reply, none on the raw response before it is sent, and a route can still change one", async () => {
    const app = Fastify();
    registerSecurityHeaders(app);
    let rawBeforeSend: string[] = [];
    let replyBeforeSend: Record<string, unknown> = {};
    app.addHook('onSend', (_request, reply, payload, done) => {
      rawBeforeSend = reply.raw.getHeaderNames();
      replyBeforeSend = { ...reply.getHeaders() };
      done(null, payload);
    });
    app.get('/plain', async () => ({ ok: true }));
    app.get('/framed', async (_request, reply) => {
      reply.header('x-frame-options', 'SAMEORIGIN');
      return { ok: true };
    });
    try {
      const plain = await app.inject({ url: '/plain' });
      // Nothing was set header by header on Node's response: one writeHead sends them all.
      expect(rawBeforeSend).toEqual([]);
      const built = helmetHeaders();
      expect(Object.keys(built)).toHaveLength(11);
      for (const [name, value] of Object.entries(built)) {
        expect(replyBeforeSend[name], name).toBe(value);
        expect(plain.headers[name], name).toBe(value);
      }
      const framed = await app.inject({ url: '/framed' });
      expect(framed.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(framed.headers['content-security-policy']).toBe(built['content-security-policy']);
    } finally {
      await app.close();
    }
  });
});
