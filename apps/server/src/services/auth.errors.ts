import { DomainError } from '../domain/errors';

/** Unknown e-mail or wrong password: one answer for both. */
export class InvalidCredentials extends DomainError {
  constructor() {
    super('auth.invalidCredentials');
  }
}

/** A sign-in link (decision 130) that is unknown, used, expired or another account's. */
export class SignInLinkInvalid extends DomainError {
  constructor() {
    super('auth.signInLinkInvalid');
  }
}
