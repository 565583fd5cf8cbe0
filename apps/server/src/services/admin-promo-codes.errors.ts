import { DomainError } from '../domain/errors';

/** Another promo code already has that code. */
export class PromoCodeTaken extends DomainError {
  constructor() {
    super('admin.promoCodeTaken', { field: 'code' });
  }
}

/** No promo code with that id. */
export class PromoCodeNotFound extends DomainError {
  constructor() {
    super(undefined);
  }
}

/** The promo code has already ended: it cannot be changed any more. */
export class PromoCodeEnded extends DomainError {
  constructor() {
    super('admin.promoCodeEnded');
  }
}
