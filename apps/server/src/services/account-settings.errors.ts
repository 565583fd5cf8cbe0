import { DomainError } from '../domain/errors';

/** The password typed to confirm a change is not the account's. */
export class WrongPassword extends DomainError {
  constructor(field: string) {
    super('account.wrongPassword', { field });
  }
}

/** The new password is the one the account already has. */
export class SamePassword extends DomainError {
  constructor() {
    super('account.samePassword', { field: 'password' });
  }
}

/** The session asked to be ended is the one making the request (signing out does that). */
export class CurrentSessionNotRevocable extends DomainError {
  constructor() {
    super('account.currentSession');
  }
}

/** No open session of this user with that id. */
export class SessionNotFound extends DomainError {
  constructor() {
    super('account.sessionNotFound');
  }
}
