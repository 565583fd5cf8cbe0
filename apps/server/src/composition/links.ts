import type { Language } from '@tradebot/contract';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';

/** This server's own address once it listens (the simulated provider posts its events there). */
export function listeningUrl(app: FastifyInstance): string | undefined {
  if (!app.server.listening) return undefined;
  const address = app.server.address();
  if (!address || typeof address === 'string') return undefined;
  const host =
    address.family === 'IPv6'
      ? `[${address.address === '::' ? '::1' : address.address}]`
      : address.address === '0.0.0.0'
        ? '127.0.0.1'
        : address.address;
  return `http://${host}:${String(address.port)}`;
}

/** Every absolute link we hand out: provider return links, mails, cTrader's return page. */
export interface PublicLinks {
  /** PUBLIC_URL, else the address we listen on; never the request's Host or X-Forwarded-Host (issue 18). */
  base: () => string;
  /** A path of this server (an API path, the admin console). */
  at: (path: string) => string;
  /** A page of the web app in `language`: Portuguese pages live under /pt (decision 053). */
  pageUrl: (language: Language, path: string) => string;
}

export function publicLinks(
  config: Pick<Config, 'PUBLIC_URL' | 'HOST' | 'PORT'>,
  app: FastifyInstance,
): PublicLinks {
  const base = () =>
    config.PUBLIC_URL ?? listeningUrl(app) ?? `http://${config.HOST}:${String(config.PORT)}`;
  const at = (path: string) => new URL(path, base()).toString();
  return {
    base,
    at,
    pageUrl: (language, path) => at(`${language === 'pt' ? '/pt' : ''}${path}`),
  };
}
