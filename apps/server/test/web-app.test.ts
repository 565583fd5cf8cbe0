import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokersRepository } from '../src/repositories/brokers.repository';
import { useTestApp } from './helpers/app';

/**
 * A web build as apps/web/scripts/prerender.ts writes it (docs/decisions/053, 054), small
 * enough to read: one page per language, the robotbitcoin template, not found, the app shell.
 */
const distDir = path.join(os.tmpdir(), `tradebot-web-${String(process.pid)}`);
const script = `console.log(${JSON.stringify('tradebot '.repeat(800))});`;
const page = (language: string, text: string) =>
  `<!doctype html><html lang="${language}"><title>${text}</title><div id="root">${text}</div>`;
const files: Record<string, string | Buffer> = {
  'index.html': page('es', 'template'),
  'robots.txt': 'User-agent: *\n',
  'assets/index-Ab12Cd.js': script,
  'assets/index-Ab12Cd.js.br': zlib.brotliCompressSync(script),
  'assets/index-Ab12Cd.js.gz': zlib.gzipSync(script),
  'assets/index-Ab12Cd.js.map': '{"version":3}',
  '_pages/es/index.html': page('es', 'Inicio'),
  '_pages/pt/index.html': page('pt', 'Início'),
  '_pages/es/login.html': page('es', 'Iniciar sesión'),
  '_pages/pt/login.html': page('pt', 'Entrar'),
  '_pages/es/404.html': page('es', 'No existe'),
  '_pages/pt/404.html': page('pt', 'Não existe'),
  '_pages/es/app.html': page('es', 'App'),
  '_pages/pt/app.html': page('pt', 'App pt'),
  '_pages/es/promo/robotbitcoin-template.html': page(
    'es',
    'Robot para Qzxbrokerqzx <link rel="canonical" href="https://x/promo/robotbitcoin-qzxbrokerqzx"><div data-broker="Qzxbrokerqzx" data-broker-segment="robotbitcoin-qzxbrokerqzx">',
  ),
  '_pages/pt/promo/robotbitcoin-template.html': page('pt', 'Robô para Qzxbrokerqzx'),
  '_pages/es/promo/robotbitcoin.html': page('es', 'Robot para tu bróker'),
  '_pages/pt/promo/robotbitcoin.html': page('pt', 'Robô para a sua corretora'),
};
const manifest = {
  pages: {
    es: { '/': 'es/index.html', '/login': 'es/login.html' },
    pt: { '/': 'pt/index.html', '/login': 'pt/login.html' },
  },
  robotBitcoin: {
    es: { template: 'es/promo/robotbitcoin-template.html', generic: 'es/promo/robotbitcoin.html' },
    pt: { template: 'pt/promo/robotbitcoin-template.html', generic: 'pt/promo/robotbitcoin.html' },
  },
  notFound: { es: 'es/404.html', pt: 'pt/404.html' },
  app: { es: 'es/app.html', pt: 'pt/app.html' },
  appPaths: ['/dashboard'],
  placeholder: { segment: 'robotbitcoin-qzxbrokerqzx', name: 'Qzxbrokerqzx' },
};

describe('serving the web app', () => {
  // beforeAll runs before useTestApp's beforeEach builds the app.
  beforeAll(async () => {
    for (const [name, content] of Object.entries(files)) {
      await fs.mkdir(path.dirname(path.join(distDir, name)), { recursive: true });
      await fs.writeFile(path.join(distDir, name), content);
    }
    await fs.writeFile(path.join(distDir, '_pages/pages.json'), JSON.stringify(manifest));
  });
  afterAll(() => fs.rm(distDir, { recursive: true, force: true }));
  const context = useTestApp({ WEB_DIST_DIR: distDir });
  const get = (url: string, headers: Record<string, string> = {}) =>
    context.app.inject({ url, headers });

  it('answers each public page with its prerendered HTML in the address language, never cached', async () => {
    for (const [url, text] of [
      ['/', 'Inicio'],
      ['/pt', 'Início'],
      ['/login?p=1', 'Iniciar sesión'],
      ['/pt/login', 'Entrar'],
    ] as const) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain(`<div id="root">${text}</div>`);
    }
  });

  it('answers logged-in screens with the shell, and anything else with a 404 page', async () => {
    expect((await get('/pt/dashboard')).body).toContain('App pt');
    for (const [url, text] of [
      ['/no-such-page', 'No existe'],
      ['/pt/no-such-page', 'Não existe'],
      ['/promo/other', 'No existe'],
      ['/_pages/pages.json', 'No existe'],
      ['/index.html', 'No existe'],
    ] as const) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).toContain(text);
    }
  });

  it('sends a reader whose stored choice is Portuguese to the Portuguese address', async () => {
    const response = await get('/login?p=1', { cookie: 'theme=dark; language=pt' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/pt/login?p=1');
    expect(response.headers.vary).toContain('Cookie');
    expect((await get('/login', { cookie: 'language=es' })).statusCode).toBe(200);
    // The address names the language: no redirect.
    expect((await get('/pt/login', { cookie: 'language=es' })).statusCode).toBe(200);
    const slash = await get('/pt/login/');
    expect(slash.statusCode).toBe(301);
    expect(slash.headers.location).toBe('/pt/login');
  });

  // Issue 37, point 5: `//evil.example/login/` was answered `301 location: //evil.example/login`,
  // an address on another host; browsers read `/\\host` as `//host` too. Sent over a socket, as
  // written: `inject` would read `/\\host/…` as a URL with that host.
  it('cleans a trailing slash without sending anyone to another host', async () => {
    await context.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = context.app.server.address() as AddressInfo;
    for (const [url, location] of [
      ['//evil.example/login/', '/evil.example/login'],
      ['///evil.example/login/', '/evil.example/login'],
      ['/\\evil.example/login/', '/evil.example/login'],
      ['/\\/evil.example/', '/evil.example'],
      ['//evil.example/?next=1', '/evil.example?next=1'],
      ['//', '/'],
      ['/pt//evil.example/', '/pt/evil.example'],
    ] as const) {
      const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
        http.get({ host: '127.0.0.1', port, path: url }, resolve).on('error', reject);
      });
      response.resume();
      expect(response.statusCode, url).toBe(301);
      expect(response.headers.location, url).toBe(location);
    }
  });

  it('sends a first visit whose browser prefers Portuguese to the Portuguese address', async () => {
    for (const header of ['pt-BR,pt;q=0.9,en;q=0.8', 'en-US,pt;q=0.7,es;q=0.5', 'pt']) {
      const first = await get('/login?p=1', { 'accept-language': header });
      expect(first.statusCode, header).toBe(302);
      expect(first.headers.location).toBe('/pt/login?p=1');
      expect(first.headers.vary).toContain('Accept-Language');
    }
    for (const header of ['es-AR,es;q=0.9,pt;q=0.8', 'pt;q=0,es', 'en-US,en;q=0.9', '']) {
      expect((await get('/', { 'accept-language': header })).statusCode, header).toBe(200);
    }
    // Crawlers send none: the Spanish page at its address.
    expect((await get('/')).statusCode).toBe(200);
    // The stored choice wins afterwards.
    const chosen = await get('/', { 'accept-language': 'pt-BR', cookie: 'language=es' });
    expect(chosen.statusCode).toBe(200);
    expect(chosen.body).toContain('Inicio');
  });

  it('answers a robotbitcoin landing only for a linkable broker of the directory, with its own name', async () => {
    const entry = {
      regulators: [],
      countries: ['AR'],
      platforms: ['ctrader'],
      minDepositCents: 0,
      markets: ['forex'],
      robotSupported: true,
    };
    await new BrokersRepository(context.app.database.db).replaceAll(
      [
        { ...entry, id: 'xm', name: 'XM' },
        { ...entry, id: 'ab-markets', name: 'A&B <Markets>' },
        // In the directory, but the robot cannot work with it (issue 39): no page invites the
        // reader to connect an account there.
        { ...entry, id: 'sin-robot', name: 'Sin Robot', platforms: ['web'], robotSupported: false },
      ],
      new Date(),
    );
    const response = await get('/promo/robotbitcoin-xm');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('Robot para XM');
    expect(response.body).toContain('href="https://x/promo/robotbitcoin-xm"');
    expect(response.body).toContain('data-broker="XM" data-broker-segment="robotbitcoin-xm"');
    expect((await get('/pt/promo/robotbitcoin-XM')).body).toContain('Robô para XM');
    const escaped = await get('/promo/robotbitcoin-ab-markets');
    expect(escaped.body).toContain('Robot para A&amp;B &lt;Markets&gt;');
    expect(escaped.body).not.toContain('<Markets>');
    // Text that names no broker of the directory is not a page: no headline from the address.
    for (const url of [
      '/promo/robotbitcoin-estafa-garantizada-1000-por-ciento',
      '/promo/robotbitcoin-%3Cscript%3Ealert(1)%3C%2Fscript%3E',
      '/pt/promo/robotbitcoin-interactive-brokers',
      '/promo/robotbitcoin-sin-robot',
      '/pt/promo/robotbitcoin-sin-robot',
    ]) {
      const unknown = await get(url);
      expect(unknown.statusCode, url).toBe(404);
      expect(unknown.body, url).toContain(url.startsWith('/pt') ? 'Não existe' : 'No existe');
      expect(unknown.body, url).not.toMatch(/Estafa|script|Interactive|Sin Robot/i);
    }
    expect((await get('/pt/promo/robotbitcoin-')).body).toContain('Robô para a sua corretora');
  });

  it('sends the compressed copies the build wrote, as they are, and caches hashed assets', async () => {
    for (const [encoding, copy] of [
      ['br', files['assets/index-Ab12Cd.js.br']],
      ['gzip', files['assets/index-Ab12Cd.js.gz']],
    ] as const) {
      const response = await context.app.inject({
        url: '/assets/index-Ab12Cd.js',
        headers: { 'accept-encoding': encoding === 'br' ? 'br, gzip, deflate' : 'gzip' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.rawPayload.equals(copy as Buffer)).toBe(true);
    }
    const plain = await get('/assets/index-Ab12Cd.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('never serves a source map', async () => {
    const response = await get('/assets/index-Ab12Cd.js.map');
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('"version"');
  });

  it('keeps unknown API paths as JSON 404s', async () => {
    const response = await get('/core-api/public/api/v1/unknown');
    expect(response.statusCode).toBe(404);
    expect(response.json<{ code: string }>().code).toBe('NOT_FOUND');
  });
});
