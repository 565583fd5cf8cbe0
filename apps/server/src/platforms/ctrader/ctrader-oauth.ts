/**
 * Spotware's OAuth2 for the cTrader Open API (decision 091): the granting page at cTrader ID
 * (client_id, redirect_uri, scope=trading, and our state) and the token endpoint, which
 * exchanges a code (valid one minute, once) and refreshes with a refresh token (the access
 * token lives 2,628,000 s, about 30 days; the refresh token does not expire). Spotware documents
 * neither PKCE nor a revocation call.
 */
export interface CTraderOAuthOptions {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly authorizeUrl: string;
  readonly tokenUrl: string;
  /** Read when used: the server's public address may be known only once it listens. */
  readonly redirectUri: () => string;
  readonly fetch?: typeof fetch;
  /** The token endpoint's answer is awaited this long. */
  readonly timeoutMs?: number;
}

export interface CTraderGrant {
  readonly accessToken: string;
  readonly refreshToken: string;
  readonly expiresAt: Date;
}

/** The token endpoint refused (errorCode in its answer): the code or refresh token is no good. */
export class CTraderGrantRefused extends Error {
  constructor(
    readonly errorCode: string,
    description: string | undefined,
  ) {
    super(`cTrader token endpoint refused: ${errorCode}${description ? ` (${description})` : ''}`);
    this.name = 'CTraderGrantRefused';
  }
}

/** The token endpoint could not be reached, or answered something that is not a grant. */
export class CTraderOAuthUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CTraderOAuthUnavailable';
  }
}

interface TokenAnswer {
  accessToken?: unknown;
  refreshToken?: unknown;
  expiresIn?: unknown;
  errorCode?: unknown;
  description?: unknown;
}

export class CTraderOAuth {
  constructor(private readonly options: CTraderOAuthOptions) {}

  /** The granting page, for the browser. */
  authorizationUrl(state: string): string {
    const url = new URL(this.options.authorizeUrl);
    url.searchParams.set('client_id', this.options.clientId);
    url.searchParams.set('redirect_uri', this.options.redirectUri());
    url.searchParams.set('scope', 'trading');
    url.searchParams.set('state', state);
    return url.toString();
  }

  exchangeCode(code: string, now: Date): Promise<CTraderGrant> {
    return this.token(
      { grant_type: 'authorization_code', code, redirect_uri: this.options.redirectUri() },
      now,
    );
  }

  refresh(refreshToken: string, now: Date): Promise<CTraderGrant> {
    return this.token({ grant_type: 'refresh_token', refresh_token: refreshToken }, now);
  }

  /**
   * Spotware's documented call: the parameters in the query string of a POST, JSON back. The
   * URL carries the client secret and the code, so it is never logged.
   */
  private async token(parameters: Record<string, string>, now: Date): Promise<CTraderGrant> {
    const url = new URL(this.options.tokenUrl);
    for (const [name, value] of Object.entries({
      ...parameters,
      client_id: this.options.clientId,
      client_secret: this.options.clientSecret,
    })) {
      url.searchParams.set(name, value);
    }
    let answer: TokenAnswer;
    try {
      const response = await (this.options.fetch ?? fetch)(url, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
      const type = response.headers.get('content-type') ?? '';
      if (!type.includes('json')) {
        throw new CTraderOAuthUnavailable(`token endpoint answered ${String(response.status)}`);
      }
      answer = (await response.json()) as TokenAnswer;
    } catch (error) {
      if (error instanceof CTraderOAuthUnavailable) throw error;
      // The cause may hold the URL, with the secret: only its name is kept.
      throw new CTraderOAuthUnavailable(
        `token endpoint unreachable (${error instanceof Error ? error.name : 'error'})`,
      );
    }
    if (typeof answer.errorCode === 'string' && answer.errorCode !== '') {
      throw new CTraderGrantRefused(
        answer.errorCode,
        typeof answer.description === 'string' ? answer.description : undefined,
      );
    }
    const { accessToken, refreshToken, expiresIn } = answer;
    if (
      typeof accessToken !== 'string' ||
      accessToken === '' ||
      typeof refreshToken !== 'string' ||
      refreshToken === '' ||
      typeof expiresIn !== 'number' ||
      !(expiresIn > 0)
    ) {
      throw new CTraderOAuthUnavailable('token endpoint answered without a grant');
    }
    return { accessToken, refreshToken, expiresAt: new Date(now.getTime() + expiresIn * 1000) };
  }
}
