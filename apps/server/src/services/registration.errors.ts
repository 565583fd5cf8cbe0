import { DomainError } from '../domain/errors';

/** spec §5: registration is closed from this country. */
export class RegionBlocked extends DomainError {
  constructor() {
    super('auth.regionBlocked');
  }
}

/** The confirmation link is unknown, used, expired, or carries no consent (decision 087). */
export class ConfirmationLinkInvalid extends DomainError {
  constructor() {
    super('auth.confirmationInvalid');
  }
}

/** Another browser than the one that registered: the password proves whose registration it is. */
export class ConfirmationNeedsPassword extends DomainError {
  constructor() {
    super('auth.confirmationNeedsPassword', { field: 'password' });
  }
}

/** The password typed is not the one chosen at registration. */
export class ConfirmationWrongPassword extends DomainError {
  constructor() {
    super('auth.confirmationWrongPassword', { field: 'password' });
  }
}

/** The address got its account meanwhile (another link, or a second click). */
export class ConfirmationUsed extends DomainError {
  constructor() {
    super('auth.confirmationUsed');
  }
}
