import { DomainError } from '../domain/errors';

/** The subscription's promotion has no free month to offer (any more). */
export class SubscriptionPromoUnavailable extends DomainError {
  constructor() {
    super('promo.unavailable', { field: 'promo' });
  }
}
