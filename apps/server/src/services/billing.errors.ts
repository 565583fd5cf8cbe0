import { DomainError } from '../domain/errors';

/** The payment provider failed or could not be reached; nothing was decided. */
export class PaymentProviderUnavailable extends DomainError {
  constructor() {
    super('billing.providerUnavailable');
  }
}

/** A paid subscription is still running (or past due): no second checkout. */
export class AlreadySubscribed extends DomainError {
  constructor() {
    super('billing.alreadySubscribed');
  }
}

/** No checkout with that id, or not this user's. */
export class CheckoutNotFound extends DomainError {
  constructor() {
    super('billing.checkoutNotFound');
  }
}

/** No paid subscription running to cancel or renew. */
export class NoSubscription extends DomainError {
  constructor() {
    super('billing.noSubscription');
  }
}

/** Past the 7 days after the first payment, or nothing to refund (spec §1). */
export class RefundNotEligible extends DomainError {
  constructor() {
    super('billing.refundNotEligible');
  }
}

/** The 30-day guarantee does not apply now (decision 048). */
export class GuaranteeNotEligible extends DomainError {
  constructor() {
    super('billing.guaranteeNotEligible');
  }
}

/** No subscription at a provider with a card page. */
export class PortalUnavailable extends DomainError {
  constructor() {
    super('billing.portalUnavailable');
  }
}

/** The free month is once per user, and never after a paid subscription. */
export class FreeMonthUsed extends DomainError {
  constructor() {
    super('billing.freeMonthUsed', { field: 'promocode' });
  }
}

/** A webhook for a provider this server does not run. */
export class UnknownPaymentProvider extends DomainError {
  constructor() {
    super(undefined);
  }
}

/** A webhook whose signature (or age) the provider's check refused. */
export class WebhookNotVerified extends DomainError {
  constructor() {
    super('billing.webhookRejected');
  }
}
