import { DomainError } from '../domain/errors';

/** An administrator's unknown e-mail or wrong password: one answer for both. */
export class AdminCredentialsInvalid extends DomainError {
  constructor() {
    super('auth.invalidCredentials');
  }
}

/** The first step's session is unknown, expired or revoked. */
export class AdminSessionUnknown extends DomainError {
  constructor() {
    super(undefined);
  }
}

/** The TOTP code is wrong or was already used. */
export class AdminCodeIncorrect extends DomainError {
  constructor() {
    super('auth.incorrectCode', { field: 'code' });
  }
}
