import { DomainError } from '../domain/errors';

/** The new address is the one the account already has. */
export class SameEmail extends DomainError {
  constructor() {
    super('account.sameEmail', { field: 'email' });
  }
}

/** The confirmation or undo link is unknown, used or expired. */
export class EmailLinkInvalid extends DomainError {
  constructor() {
    super('account.emailLinkInvalid');
  }
}

/** The new address got an account of its own before the link was used. */
export class EmailTaken extends DomainError {
  constructor() {
    super('account.emailTaken');
  }
}
