import type { Language } from '@tradebot/contract';
import type { MoneyNoticeFacts } from '../domain/money-notices';
import { formatAmount, formatDay } from '../formats';
import { translator } from '../i18n';
import { renderMail } from '../mail/layout';
import type { MailMessage } from '../repositories/mail.repository';

/**
 * What a money notice says (decision 148): the amount, the day, what happens to the robot and
 * how to cancel or pay, in the user's language. Amounts as the plan charges them, no promise.
 */
export function moneyNoticeContent(
  language: Language,
  facts: MoneyNoticeFacts,
): { subject: string; lines: string[] } {
  const t = translator(language);
  const day = (iso: string) => formatDay(language, new Date(iso));
  switch (facts.kind) {
    case 'renewal_notice': {
      const date = day(facts.chargeAt);
      return {
        subject: t('money.renewalSubject', { date }),
        lines: [
          t('money.renewalCharge', { date, amount: formatAmount(language, facts.amountCents) }),
          t('money.renewalKeep'),
          t('money.renewalCancel', { date }),
          t('money.renewalRefund'),
        ],
      };
    }
    case 'free_month_ending': {
      const date = day(facts.endsAt);
      const subject = t('money.freeMonthSubject', { date });
      if (!facts.charge) {
        return {
          subject,
          lines: [
            t('money.freeMonthNoPlan', { date }),
            t('money.freeMonthChoose', { date }),
            t('money.freeMonthNothingToCancel'),
          ],
        };
      }
      return {
        subject,
        lines: [
          t('money.freeMonthCharge', {
            date,
            amount: formatAmount(language, facts.charge.amountCents),
            plan: t(`money.plan.${facts.charge.plan}`),
          }),
          t('money.freeMonthCancel', { date }),
        ],
      };
    }
    case 'payment_failed':
      return {
        subject: t('money.failedSubject'),
        lines: [
          t('money.failedIntro', {
            amount: formatAmount(language, facts.amountCents),
            plan: t(`money.plan.${facts.plan}`),
          }),
          t('money.failedRobot'),
          facts.retryAt
            ? t('money.failedRetry', { date: day(facts.retryAt) })
            : t('money.failedNoRetry'),
        ],
      };
  }
}

/** A money notice's e-mail: its lines, the payment page's link, why it cannot be switched off. */
export function moneyNoticeMail(
  language: Language,
  to: string,
  name: string,
  facts: MoneyNoticeFacts,
  paymentUrl: string,
): Promise<MailMessage> {
  const t = translator(language);
  const { subject, lines } = moneyNoticeContent(language, facts);
  return renderMail({
    language,
    to,
    subject,
    blocks: [
      { p: t('greeting', { name }) },
      ...lines.map((line) => ({ p: line })),
      { button: t('money.paymentButton'), href: paymentUrl },
    ],
    footer: [{ p: t('billing.honesty') }, { p: t('money.why') }, { p: t('signature') }],
  });
}
