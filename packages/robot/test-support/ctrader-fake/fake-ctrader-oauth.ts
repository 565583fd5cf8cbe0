import { randomBytes } from 'node:crypto';
import http from 'node:http';

/**
 * A local stand-in for Spotware's OAuth2 endpoints (cTrader ID's granting page and the Open
 * API's token endpoint), for tests and e2e: plain HTTP on 127.0.0.1, the same paths, parameters
 * and JSON as the real ones (decision 091). The granting page approves at once (a user who
 * clicked "Allow access") and redirects with `code` and the `state` it was given; the token
 * endpoint exchanges a code once, within its lifetime, and refreshes with a refresh token, which
 * it replaces (the old one is refused from then on). Errors are answered as Spotware does:
 * `{ errorCode, description }`.
 */
export interface FakeCTraderOAuthOptions {
  readonly clientId: string;
  readonly clientSecret: string;
  /** The access token the first exchange grants: the fake cTrader account's (fixtures). */
  readonly accessToken: string;
  /** A code is good for this long (Spotware: one minute). */
  readonly codeLifetimeMs?: number;
  /** `expiresIn` of the tokens issued, in seconds (Spotware: 2,628,000, about 30 days). */
  readonly expiresInSeconds?: number;
  /** A refresh replaced `previous` with `next`: the fake cTrader server should follow it. */
  readonly onTokenReplaced?: (previous: string, next: string) => void;
}

/** Where the real ones live; the fake answers on the same paths. */
export const spotwareAuthorizePath = '/my/settings/openapi/grantingaccess/';
export const spotwareTokenPath = '/apps/token';

interface Code {
  readonly redirectUri: string;
  readonly issuedAt: number;
  used: boolean;
}

export class FakeCTraderOAuthServer {
  private readonly server: http.Server;
  private readonly codes = new Map<string, Code>();
  private accessToken: string;
  private refreshToken: string | undefined;
  /** Every token request received, parameters only (tests check what was sent). */
  readonly tokenRequests: Record<string, string>[] = [];
  /** Every authorisation request's parameters. */
  readonly authorizeRequests: Record<string, string>[] = [];
  /** Refuse the next approvals: the user clicked "Deny" (redirect with error=access_denied). */
  denyNext = false;

  constructor(private readonly options: FakeCTraderOAuthOptions) {
    this.accessToken = options.accessToken;
    this.server = http.createServer((request, response) => {
      this.handle(request, response).catch(() => {
        response.statusCode = 500;
        response.end();
      });
    });
  }

  async listen(port = 0): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    return this.port;
  }

  get port(): number {
    const address = this.server.address();
    if (address === null || typeof address === 'string')
      throw new Error('fake OAuth not listening');
    return address.port;
  }

  get origin(): string {
    return `http://127.0.0.1:${String(this.port)}`;
  }

  get authorizeUrl(): string {
    return `${this.origin}${spotwareAuthorizePath}`;
  }

  get tokenUrl(): string {
    return `${this.origin}${spotwareTokenPath}`;
  }

  /** The access token currently valid (after refreshes). */
  get currentAccessToken(): string {
    return this.accessToken;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => {
      this.server.close(() => {
        resolve();
      });
    });
  }

  /** A code for a user who approved, without the browser's round trip (tests). */
  approve(redirectUri: string): string {
    const code = randomBytes(24).toString('hex');
    this.codes.set(code, { redirectUri, issuedAt: Date.now(), used: false });
    return code;
  }

  /** The user removed the application at cTrader ID: the refresh token is refused from now on. */
  revokeGrant(): void {
    this.refreshToken = undefined;
  }

  /** Every code issued so far is past its lifetime. */
  expireCodes(): void {
    for (const [code, entry] of this.codes) {
      this.codes.set(code, { ...entry, issuedAt: 0 });
    }
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse) {
    const url = new URL(request.url ?? '/', this.origin);
    if (request.method === 'GET' && url.pathname === spotwareAuthorizePath) {
      this.authorize(url, response);
      return;
    }
    if (
      url.pathname === spotwareTokenPath &&
      (request.method === 'POST' || request.method === 'GET')
    ) {
      const body = await readBody(request);
      const parameters = Object.fromEntries(url.searchParams);
      // A form body is read too, so either style of client is answered.
      if (body.length > 0 && request.headers['content-type']?.includes('x-www-form-urlencoded')) {
        Object.assign(parameters, Object.fromEntries(new URLSearchParams(body)));
      }
      this.tokenRequests.push(parameters);
      this.token(parameters, response);
      return;
    }
    response.statusCode = 404;
    response.end();
  }

  private authorize(url: URL, response: http.ServerResponse) {
    const parameters = Object.fromEntries(url.searchParams);
    this.authorizeRequests.push(parameters);
    const redirectUri = parameters.redirect_uri;
    if (parameters.client_id !== this.options.clientId || !redirectUri) {
      response.statusCode = 400;
      response.setHeader('content-type', 'text/plain; charset=utf-8');
      response.end('Unknown application or redirect URI');
      return;
    }
    const target = new URL(redirectUri);
    if (this.denyNext) {
      this.denyNext = false;
      target.searchParams.set('error', 'access_denied');
    } else {
      target.searchParams.set('code', this.approve(redirectUri));
    }
    if (parameters.state !== undefined) target.searchParams.set('state', parameters.state);
    response.statusCode = 302;
    response.setHeader('location', target.toString());
    response.end();
  }

  private token(parameters: Record<string, string>, response: http.ServerResponse) {
    const fail = (status: number, errorCode: string, description: string) => {
      this.json(response, status, { errorCode, description });
    };
    if (
      parameters.client_id !== this.options.clientId ||
      parameters.client_secret !== this.options.clientSecret
    ) {
      fail(401, 'ACCESS_DENIED', 'Invalid client credentials');
      return;
    }
    if (parameters.grant_type === 'authorization_code') {
      const entry = parameters.code === undefined ? undefined : this.codes.get(parameters.code);
      const lifetime = this.options.codeLifetimeMs ?? 60_000;
      if (entry === undefined || entry.used) {
        fail(400, 'INVALID_REQUEST', 'Authorization code is invalid or was already used');
        return;
      }
      entry.used = true;
      if (Date.now() - entry.issuedAt > lifetime) {
        fail(400, 'INVALID_REQUEST', 'Authorization code has expired');
        return;
      }
      if (parameters.redirect_uri !== entry.redirectUri) {
        fail(400, 'INVALID_REQUEST', 'redirect_uri does not match');
        return;
      }
      this.refreshToken = randomBytes(24).toString('hex');
      this.issue(response);
      return;
    }
    if (parameters.grant_type === 'refresh_token') {
      if (this.refreshToken === undefined || parameters.refresh_token !== this.refreshToken) {
        fail(400, 'ACCESS_DENIED', 'Refresh token is invalid');
        return;
      }
      const previous = this.accessToken;
      this.accessToken = randomBytes(24).toString('hex');
      this.refreshToken = randomBytes(24).toString('hex');
      this.options.onTokenReplaced?.(previous, this.accessToken);
      this.issue(response);
      return;
    }
    fail(400, 'UNSUPPORTED_GRANT_TYPE', 'grant_type is not supported');
  }

  private issue(response: http.ServerResponse) {
    this.json(response, 200, {
      accessToken: this.accessToken,
      tokenType: 'bearer',
      expiresIn: this.options.expiresInSeconds ?? 2_628_000,
      refreshToken: this.refreshToken,
      errorCode: null,
      description: null,
    });
  }

  private json(response: http.ServerResponse, status: number, body: unknown) {
    response.statusCode = status;
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(body));
  }
}

async function readBody(request: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
