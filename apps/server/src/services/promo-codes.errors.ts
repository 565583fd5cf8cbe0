import { DomainError } from '../domain/errors';

/** Unknown, ended or used up: one answer for all, on the form's `promocode` field. */
export class PromoCodeInvalid extends DomainError {
  constructor() {
    super('validation.promocodeInvalid', { field: 'promocode' });
  }
}
