import { DomainError } from '../domain/errors';

/** Linking comes after a plan (or a free month): the user has no access yet. */
export class LinkingNeedsPayment extends DomainError {
  constructor() {
    super('linking.paymentRequired');
  }
}

/** The user already has a platform account linked. */
export class AlreadyLinked extends DomainError {
  constructor() {
    super('linking.alreadyLinked');
  }
}

/** The user already signed in to the platform: there is nothing to log in to again. */
export class AlreadyLoggedIn extends DomainError {
  constructor() {
    super('linking.alreadyLoggedIn');
  }
}

/** The platform could not open the account now; nothing was decided. */
export class PlatformRegistrationFailed extends DomainError {
  constructor() {
    super('linking.registerFailed');
  }
}

/** The platform already has an account for this e-mail address. */
export class PlatformEmailTaken extends DomainError {
  constructor() {
    super(undefined);
  }
}

/**
 * The platform already holds this user's own account (opened before the Tradebot e-mail
 * changed, issue 39): the user signs in to it with its password. The same 409 code as
 * PlatformEmailTaken, so the app offers the same sign-in; its own words.
 */
export class PlatformAccountExists extends DomainError {
  constructor() {
    super('linking.platformAccountExists');
  }
}

/** The platform could not be reached to sign in; nothing was decided. */
export class PlatformLoginFailed extends DomainError {
  constructor() {
    super('linking.loginFailed');
  }
}

/** The platform refused the password the user typed. */
export class PlatformPasswordInvalid extends DomainError {
  constructor() {
    super('linking.invalidPlatformPassword', { field: 'password' });
  }
}

/** No cTrader application is configured on this server (CTRADER_CLIENT_ID unset). */
export class CTraderNotConfigured extends DomainError {
  constructor() {
    super('linking.ctraderNotConfigured');
  }
}

/** The state that came back is not one this user's authorisation is waiting for (decision 091). */
export class OAuthStateInvalid extends DomainError {
  constructor() {
    super('linking.oauthStateInvalid');
  }
}

/** cTrader's token endpoint or Open API refused the code or the token. */
export class OAuthGrantRefused extends DomainError {
  constructor() {
    super('linking.oauthRefused');
  }
}

/**
 * cTrader accepted the code but refused to list the accounts with the token it gave: not the
 * code's fault, so not said as "the code expired or was used" (decision 113).
 */
export class BrokerAccountsNotListed extends DomainError {
  constructor() {
    super('linking.accountsNotListed');
  }
}

/** cTrader could not be reached; nothing was decided. */
export class BrokerUnavailable extends DomainError {
  constructor() {
    super('linking.brokerUnavailable');
  }
}

/** An account was picked with no granted authorisation waiting. */
export class NoBrokerAuthorization extends DomainError {
  constructor() {
    super('linking.noAuthorization');
  }
}

/** The account picked is not among those the user granted. */
export class BrokerAccountNotOffered extends DomainError {
  constructor() {
    super('linking.accountNotOffered', { field: 'ctidTraderAccountId' });
  }
}

/** Another user has this broker account linked (decision 111). */
export class BrokerAccountTaken extends DomainError {
  constructor() {
    super('linking.brokerAccountTaken', { field: 'ctidTraderAccountId' });
  }
}

/** The account is of the environment (demo or live) this server does not link. */
export class BrokerEnvironmentNotAllowed extends DomainError {
  constructor(environment: string) {
    super('linking.environmentNotAllowed', {
      field: 'ctidTraderAccountId',
      values: { environment },
    });
  }
}

/** There is no link to end. */
export class NotLinked extends DomainError {
  constructor() {
    super('linking.notLinked');
  }
}

/** The broker-prices backtest needs a linked cTrader account (decision 144). */
export class NotLinkedToCTrader extends DomainError {
  constructor() {
    super('linking.notCTrader');
  }
}
