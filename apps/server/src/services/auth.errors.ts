import { DomainError } from '../domain/errors';

/** Unknown e-mail or wrong password: one answer for both. */
export class InvalidCredentials extends DomainError {
  constructor() {
    super('auth.invalidCredentials');
  }
}
