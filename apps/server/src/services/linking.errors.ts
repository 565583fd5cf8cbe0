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
