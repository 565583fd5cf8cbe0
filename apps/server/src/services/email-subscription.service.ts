import type { Language } from '@tradebot/contract';
import { blankToNull } from './optional-text';
import type { EmailSubscriptionsRepository } from '../repositories/email-subscriptions.repository';

export class EmailSubscriptionService {
  constructor(private readonly subscriptions: EmailSubscriptionsRepository) {}

  /** Stored once per e-mail (case-insensitively); a repeat is not an error. */
  async subscribe(email: string, promo: string | null | undefined, language: Language) {
    const isNew = await this.subscriptions.add(email.trim(), blankToNull(promo), language);
    return isNew ? ('subscribed' as const) : ('already_subscribed' as const);
  }
}
