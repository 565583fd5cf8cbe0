import { createHash, randomBytes } from 'node:crypto';
import {
  ctraderPlatform,
  type CTraderAccount,
  type CTraderEnvironment,
  type CTraderStatusResponse,
} from '@tradebot/contract';
import type { Clock } from '../repositories/clock';
import type { CredentialsCipher, SealedCredentials } from '../repositories/credentials-cipher';
import { DuplicateKey } from '../repositories/errors';
import type { CTraderAuthorizationsStore } from '../repositories/ctrader-authorizations.repository';
import type { JobClaims } from '../repositories/job-claims.repository';
import type { TradingPlatformLinksStore } from '../repositories/trading-platform-links.repository';
import type { SettingsRow, UserRow, UsersStore } from '../repositories/users.repository';
import { authorizedGrantOf, linkedGrantOf, type LinkedGrantTokens } from '../domain/ctrader-grant';
import { CTraderAccessRefused } from '../platforms/ctrader/ctrader-accounts';
import {
  CTraderGrantRefused,
  type CTraderGrant,
  type CTraderOAuth,
} from '../platforms/ctrader/ctrader-oauth';
import {
  AlreadyLinked,
  BrokerAccountNotOffered,
  BrokerAccountsNotListed,
  BrokerAccountTaken,
  BrokerEnvironmentNotAllowed,
  BrokerUnavailable,
  CTraderNotConfigured,
  LinkingNeedsPayment,
  NoBrokerAuthorization,
  OAuthGrantRefused,
  OAuthStateInvalid,
} from './linking.errors';

/** An authorisation under way lasts this long: the user logs in at cTrader ID meanwhile. */
export const authorizationLifetimeMs = 60 * 60_000;
/** Access tokens are refreshed this long before they expire (they last about 30 days). */
export const refreshAheadMs = 7 * 24 * 60 * 60_000;
/** At most one refresh after a refusal per user and process in this long (decision 113). */
export const refusalRefreshGapMs = 10 * 60_000;
/** The refresh job's item: one grant, as it stood (a refreshed grant is a new item). */
export const refreshJob = 'ctrader.refresh';

export interface CTraderLinkingDependencies {
  users: UsersStore;
  links: TradingPlatformLinksStore;
  authorizations: CTraderAuthorizationsStore;
  cipher: CredentialsCipher;
  clock: Clock;
  claims: JobClaims;
  /** Undefined when CTRADER_CLIENT_ID/SECRET are unset: the choice is shown disabled. */
  oauth: CTraderOAuth | undefined;
  environment: CTraderEnvironment;
  /** The accounts an access token covers (the Open API's account list). */
  listAccounts: (accessToken: string) => Promise<CTraderAccount[]>;
  /** The link changed (linked, or a token refreshed): the robot and the session cache follow. */
  onLinked: (row: SettingsRow) => Promise<void>;
  /** A refreshed grant is stored: whoever holds the old access token takes the new one. */
  onTokenRefreshed?: (userId: string) => Promise<void>;
  /** Logs a failure at cTrader (never a token: the errors carry none). */
  onFailure: (error: Error, what: string) => void;
}

const hashState = (state: string) => createHash('sha256').update(state).digest('base64url');

/**
 * Linking a cTrader broker account through Spotware's OAuth2 (decision 091): the granting page
 * with our state, the code exchanged for a grant, the accounts it covers, the one the user picks;
 * and the grant refreshed before it expires, by one process.
 */
export class CTraderLinkingService {
  /** When this process last refreshed a user's grant after a refusal. */
  private readonly refusalRefreshes = new Map<string, number>();

  constructor(private readonly deps: CTraderLinkingDependencies) {}

  get configured(): boolean {
    return this.deps.oauth !== undefined;
  }

  async status(user: UserRow): Promise<CTraderStatusResponse['data']> {
    const granted = this.configured
      ? await this.deps.authorizations.granted(user.id, this.deps.clock.now())
      : undefined;
    return {
      configured: this.configured,
      environment: this.deps.environment,
      accounts: granted?.accounts ?? null,
    };
  }

  /** Where to send the browser: cTrader ID's granting page with a fresh state. */
  async authorize(user: UserRow): Promise<{ authorizeUrl: string }> {
    const oauth = await this.mayLink(user);
    const state = randomBytes(32).toString('base64url');
    const now = this.deps.clock.now();
    await this.deps.authorizations.start(
      user.id,
      hashState(state),
      new Date(now.getTime() + authorizationLifetimeMs),
    );
    return { authorizeUrl: oauth.authorizationUrl(state) };
  }

  /**
   * The user came back with a code and our state: the state is spent first (a replay finds
   * nothing), then the code is exchanged and the accounts it grants are listed.
   */
  async callback(
    user: UserRow,
    input: { code: string; state: string },
  ): Promise<{ accounts: CTraderAccount[] }> {
    const oauth = await this.mayLink(user);
    const stateHash = hashState(input.state);
    if (!(await this.deps.authorizations.spend(user.id, stateHash, this.deps.clock.now()))) {
      throw new OAuthStateInvalid();
    }
    const grant = await oauth
      .exchangeCode(input.code, this.deps.clock.now())
      .catch((error: unknown) => this.grantFailure(error, 'exchanging an authorisation code'));
    const accounts = await this.deps.listAccounts(grant.accessToken).catch((error: unknown) => {
      // The code was good; cTrader refused to list the accounts with the token it just gave.
      if (error instanceof CTraderAccessRefused) {
        this.deps.onFailure(error, 'listing the granted accounts (refused)');
        throw new BrokerAccountsNotListed();
      }
      return this.grantFailure(error, 'listing the granted accounts');
    });
    await this.deps.authorizations.storeGrant(stateHash, this.seal(grant, user.id), accounts);
    return { accounts };
  }

  /** The account the user picked among those granted becomes the linked one. */
  async link(
    user: UserRow,
    input: { ctidTraderAccountId: number },
  ): Promise<{ account: CTraderAccount }> {
    await this.mayLink(user);
    const granted = await this.deps.authorizations.granted(user.id, this.deps.clock.now());
    if (!granted?.grantCiphertext || !granted.grantKeyId) throw new NoBrokerAuthorization();
    const account = (granted.accounts ?? []).find(
      (candidate) => candidate.ctidTraderAccountId === input.ctidTraderAccountId,
    );
    if (!account) throw new BrokerAccountNotOffered();
    if (!account.pickable) {
      throw new BrokerEnvironmentNotAllowed(this.deps.environment);
    }
    const sealed = { keyId: granted.grantKeyId, ciphertext: granted.grantCiphertext };
    const grant = authorizedGrantOf(this.deps.cipher.open(sealed, user.id));
    const now = this.deps.clock.now();
    const row = await this.deps.links
      .linkBroker(
        user.id,
        {
          platform: ctraderPlatform.id,
          platformAccountId: String(account.ctidTraderAccountId),
          credentials: this.deps.cipher.seal(
            JSON.stringify({ accessToken: grant.accessToken, refreshToken: grant.refreshToken }),
            user.id,
          ),
          tokenExpiresAt: grant.expiresAt,
          brokerAccount: {
            ctidTraderAccountId: account.ctidTraderAccountId,
            live: account.live,
            brokerName: account.brokerName,
            traderLogin: account.traderLogin,
            currency: account.currency,
            leverage: account.leverage,
          },
        },
        now,
      )
      .catch((error: unknown) => {
        // Another user has this broker account linked, now or by a link that won the race.
        throw error instanceof DuplicateKey ? new BrokerAccountTaken() : error;
      });
    await this.deps.onLinked(row);
    return { account };
  }

  /**
   * The grant of a linked cTrader account, opened and checked (MalformedCTraderGrant when it is
   * not one): the refresh reads its refresh token.
   */
  openGrant(userId: string, sealed: SealedCredentials): LinkedGrantTokens {
    return linkedGrantOf(this.deps.cipher.open(sealed, userId));
  }

  /**
   * Refreshes the grants that expire within `refreshAheadMs`, each by one process (a claim per
   * grant as it stands, decision 078). A refusal (the user revoked us at cTrader) is logged and
   * left: the token expires and the robot tells the user to link again. Returns how many were
   * refreshed here.
   */
  async refreshDue(limit = 100): Promise<number> {
    const oauth = this.deps.oauth;
    if (!oauth) return 0;
    const now = this.deps.clock.now();
    const due = await this.deps.links.tokensExpiringBefore(
      ctraderPlatform.id,
      new Date(now.getTime() + refreshAheadMs),
      limit,
    );
    let refreshed = 0;
    for (const row of due) {
      if (await this.refreshGrant(oauth, row)) refreshed += 1;
    }
    await this.deps.authorizations.prune(now);
    return refreshed;
  }

  /**
   * The broker refused the account's access token before its recorded expiry (decision 113):
   * the grant is refreshed once, under the same claim as the scheduled refresh of that grant, so
   * one process sends it and a second refusal of the same grant sends nothing again. True when
   * a new token is stored (the robot then reads the grants again).
   */
  async refreshRefused(userId: string): Promise<boolean> {
    const oauth = this.deps.oauth;
    if (!oauth) return false;
    // A broker that refuses every new token too is not answered with a refresh per refusal.
    const now = this.deps.clock.now().getTime();
    const last = this.refusalRefreshes.get(userId);
    if (last !== undefined && now - last < refusalRefreshGapMs) return false;
    this.refusalRefreshes.set(userId, now);
    const link = await this.deps.links.find(userId);
    if (link?.platform !== ctraderPlatform.id) return false;
    return this.refreshGrant(oauth, {
      userId,
      keyId: link.credentialsKeyId,
      ciphertext: link.credentialsCiphertext,
      tokenExpiresAt: link.tokenExpiresAt,
    });
  }

  /**
   * Refreshes one grant as it stands, under its claim (item: the user and the expiry stored).
   * A refusal (the user revoked us at cTrader) is logged and the claim finished: the user must
   * link again. True when the new pair replaced the one read.
   */
  private async refreshGrant(
    oauth: CTraderOAuth,
    row: {
      userId: string;
      keyId: string | null;
      ciphertext: string | null;
      tokenExpiresAt: Date | null;
    },
  ): Promise<boolean> {
    if (!row.keyId || !row.ciphertext || !row.tokenExpiresAt) return false;
    const from = { keyId: row.keyId, ciphertext: row.ciphertext };
    const item = `${row.userId}:${row.tokenExpiresAt.toISOString()}`;
    const done = await this.deps.claims
      .once(refreshJob, item, async () => {
        const current = this.openGrant(row.userId, from);
        let grant: CTraderGrant;
        try {
          grant = await oauth.refresh(current.refreshToken, this.deps.clock.now());
        } catch (error) {
          if (error instanceof CTraderGrantRefused) {
            this.deps.onFailure(error, 'refreshing an access token (refused: left to expire)');
            return false;
          }
          throw error;
        }
        const to = this.deps.cipher.seal(
          JSON.stringify({ accessToken: grant.accessToken, refreshToken: grant.refreshToken }),
          row.userId,
        );
        return this.deps.links.replaceGrant(
          row.userId,
          from,
          to,
          grant.expiresAt,
          this.deps.clock.now(),
        );
      })
      .catch((error: unknown) => {
        this.deps.onFailure(error as Error, 'refreshing an access token');
        return undefined;
      });
    if (done?.value !== true) return false;
    await this.deps.onTokenRefreshed?.(row.userId);
    return true;
  }

  private async mayLink(user: UserRow): Promise<CTraderOAuth> {
    const oauth = this.deps.oauth;
    if (!oauth) throw new CTraderNotConfigured();
    const settings = await this.deps.users.findSettings(user.id);
    if (!settings?.authorized) throw new LinkingNeedsPayment();
    if (settings.linked) throw new AlreadyLinked();
    return oauth;
  }

  private seal(grant: CTraderGrant, userId: string): SealedCredentials {
    return this.deps.cipher.seal(
      JSON.stringify({
        accessToken: grant.accessToken,
        refreshToken: grant.refreshToken,
        expiresAt: grant.expiresAt.toISOString(),
      }),
      userId,
    );
  }

  private grantFailure(error: unknown, what: string): never {
    if (error instanceof CTraderGrantRefused || error instanceof CTraderAccessRefused) {
      throw new OAuthGrantRefused();
    }
    this.deps.onFailure(error instanceof Error ? error : new Error(String(error)), what);
    throw new BrokerUnavailable();
  }
}
