import { DomainError } from '../domain/errors';

/** Unknown address, wrong or expired code: one answer for all, on the `otp` field. */
export class RecoveryCodeIncorrect extends DomainError {
  constructor() {
    super('auth.incorrectCode', { field: 'otp' });
  }
}
