import type { Language } from '@tradebot/contract';
import type { Clock } from '../repositories/clock';
import type { EmailSubscriptionsStore } from '../repositories/email-subscriptions.repository';
import type { Mailer } from '../repositories/mail.repository';
import type { PromoCodesStore } from '../repositories/promo-codes.repository';
import { freeMonthCodeMail } from './mail-templates';
import { blankToNull } from './optional-text';
import { SubscriptionPromoUnavailable } from './email-subscription.errors';

/** The free-month landing's own promotion (/promo/mesgratis) when the form names none. */
export const freeMonthPromotion = 'MESGRATIS';
/** A repeat subscription mails the code again only once this long has passed. */
export const codeMailIntervalMs = 86_400_000;

/**
 * The free-month landing (spec §1, §7 email-subscription): stores the address once and
 * e-mails the promotion's code in the visitor's language (docs/decisions/049).
 */
export class EmailSubscriptionService {
  constructor(
    private readonly subscriptions: EmailSubscriptionsStore,
    private readonly promoCodes: PromoCodesStore,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly onMailFailure: (error: unknown) => void,
  ) {}

  /**
   * Stored once per e-mail (case-insensitively); a repeat is not an error, and is answered as
   * a first subscription, so the answer does not tell who is subscribed (issue 18, finding 9). The code is mailed
   * the first time, and again on a repeat a day or more after the last mail. A promotion with
   * no usable free-month code is refused before anything is stored: we would promise a code
   * we cannot send.
   */
  async subscribe(email: string, promo: string | null | undefined, language: Language) {
    const now = this.clock.now();
    const code = await this.promoCodes.findUsable(blankToNull(promo) ?? freeMonthPromotion, now);
    if (code?.benefit !== 'free_month') throw new SubscriptionPromoUnavailable();
    const address = email.trim();
    await this.subscriptions.add(address, code.code, language);
    const mailNow = await this.subscriptions.claimCodeMail(
      address,
      language,
      now,
      new Date(now.getTime() - codeMailIntervalMs),
    );
    if (mailNow) {
      // After the answer, as the recovery code: the mail's latency is not the visitor's wait.
      freeMonthCodeMail(language, address, code.code)
        .then((message) => this.mailer.send(message))
        .catch(this.onMailFailure);
    }
    return 'subscribed' as const;
  }
}
