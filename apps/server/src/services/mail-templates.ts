import type { Language, PlanId, SessionDevice } from '@tradebot/contract';
import { translator } from '../i18n';
import { renderMail, type Block } from '../mail/layout';
import type { MailMessage } from '../repositories/mail.repository';
import { signInLinkLifetimeMs } from './auth.service';

/**
 * Where an e-mail tells its reader to write: support's address when the server was given one
 * (SUPPORT_EMAIL or OPERATOR_EMAIL), else the contact form in the reader's language; no
 * address is made up (decision 156).
 */
export interface SupportContact {
  supportEmail: string | null;
  contactUrl: string;
}

/** The recovery-code e-mail, as text and HTML, in the user's language. */
export function recoveryCodeMail(
  language: Language,
  to: string,
  name: string,
  code: string,
  validMinutes: number,
): Promise<MailMessage> {
  const t = translator(language);
  return renderMail({
    language,
    to,
    subject: t('recovery.subject'),
    blocks: [
      { p: t('greeting', { name }) },
      { p: t('recovery.intro') },
      { code },
      { p: t('recovery.validity', { minutes: validMinutes }) },
      { p: t('recovery.ignore') },
      { p: t('signature') },
    ],
  });
}

/** The free-month landing's e-mail: the promotion's code, as text and HTML. */
export function freeMonthCodeMail(language: Language, to: string, code: string) {
  const t = translator(language);
  return renderMail({
    language,
    to,
    subject: t('freeMonth.subject'),
    blocks: [
      { p: t('freeMonth.greeting') },
      { p: t('freeMonth.intro') },
      { code },
      { p: t('freeMonth.howTo') },
      { p: t('freeMonth.risk') },
      { p: t('signature') },
    ],
  });
}

export interface ReceiptFacts {
  plan: PlanId;
  amount: string;
  paidAt: string;
  periodEnd: string;
  card: string | null;
  /** The last day of the 7-day refund, for the first payment only. */
  refundUntil: string | null;
  giftAmount: string | null;
}

/** The receipt of a payment, as text and HTML, in the user's language. */
export function paymentReceiptMail(
  language: Language,
  to: string,
  name: string,
  facts: ReceiptFacts,
): Promise<MailMessage> {
  const t = translator(language);
  const table: [string, string][] = [
    [t(`billing.plan.${facts.plan}`), facts.amount],
    [t('billing.paidAt'), facts.paidAt],
    [t('billing.periodEnd'), facts.periodEnd],
    ...(facts.card ? ([[t('billing.card'), facts.card]] as [string, string][]) : []),
  ];
  const notes: Block[] = [
    ...(facts.giftAmount ? [{ p: t('billing.gift', { amount: facts.giftAmount }) }] : []),
    ...(facts.refundUntil ? [{ p: t('billing.refund', { day: facts.refundUntil }) }] : []),
  ];
  return renderMail({
    language,
    to,
    subject: t('billing.receiptSubject'),
    blocks: [
      { p: t('greeting', { name }) },
      { p: t('billing.receiptIntro') },
      { table },
      ...notes,
      { p: t('billing.honesty') },
      { p: t('signature') },
    ],
  });
}

/** The confirmation of a refund, in the user's language. */
export function refundMail(language: Language, to: string, name: string, amount: string) {
  const t = translator(language);
  return renderMail({
    language,
    to,
    subject: t('billing.refundSubject'),
    blocks: [
      { p: t('greeting', { name }) },
      { p: t('billing.refundIntro', { amount }) },
      { p: t('billing.refundAccess') },
      { p: t('signature') },
    ],
  });
}

/** A second subscription's payment, refunded at once: why, in the user's language (issue 18). */
export function duplicateRefundMail(language: Language, to: string, name: string, amount: string) {
  const t = translator(language);
  return renderMail({
    language,
    to,
    subject: t('billing.duplicateSubject'),
    blocks: [
      { p: t('greeting', { name }) },
      { p: t('billing.duplicateIntro', { amount }) },
      { p: t('billing.duplicateKept') },
      { p: t('signature') },
    ],
  });
}

/**
 * Sign-ins to a user's account refused by the limits from places it never signed in from
 * (decision 079), in the account's language. It names no address: the attempts come from many.
 * It carries a one-time link to sign in from a new device past the limits (decision 130).
 */
export function signInAttackMail(
  language: Language,
  to: string,
  name: string,
  links: { signInUrl: string; forgotPasswordUrl: string } & SupportContact,
): Promise<MailMessage> {
  const t = translator(language);
  return renderMail({
    language,
    to,
    subject: t('signInAttack.subject'),
    blocks: [
      { p: t('greeting', { name }) },
      { p: t('signInAttack.seen') },
      { p: t('signInAttack.stillWorks') },
      { p: t('signInAttack.newDevice', { hours: signInLinkLifetimeMs / 3_600_000 }) },
      { link: links.signInUrl },
      { p: t('signInAttack.ifNotYou', { url: links.forgotPasswordUrl }) },
      {
        p: links.supportEmail
          ? t('signInAttack.support', { email: links.supportEmail })
          : t('signInAttack.supportForm', { url: links.contactUrl }),
      },
      { p: t('signature') },
    ],
  });
}

/**
 * A sign-in from a device the owner has not used lately (decision 163): which device, and what
 * to do if it was not them. No time is quoted: the e-mail leaves as the session opens.
 */
export function newDeviceSignInMail(
  language: Language,
  to: string,
  name: string,
  device: SessionDevice,
  links: { forgotPasswordUrl: string; settingsUrl: string } & SupportContact,
): Promise<MailMessage> {
  const t = translator(language);
  const kind = t(device.mobile ? 'newDeviceSignIn.phone' : 'newDeviceSignIn.computer');
  const named =
    device.browser && device.os
      ? t('newDeviceSignIn.browserOn', { browser: device.browser, os: device.os, kind })
      : device.browser || device.os
        ? t('newDeviceSignIn.one', { name: device.browser ?? device.os, kind })
        : t('newDeviceSignIn.unknown');
  return renderMail({
    language,
    to,
    subject: t('newDeviceSignIn.subject'),
    blocks: [
      { p: t('greeting', { name }) },
      { p: t('newDeviceSignIn.seen', { device: named }) },
      { p: t('newDeviceSignIn.ifYou') },
      { p: t('newDeviceSignIn.ifNotYou', { url: links.forgotPasswordUrl }) },
      { p: t('newDeviceSignIn.sessions', { url: links.settingsUrl }) },
      {
        p: links.supportEmail
          ? t('signInAttack.support', { email: links.supportEmail })
          : t('signInAttack.supportForm', { url: links.contactUrl }),
      },
      { p: t('signature') },
    ],
  });
}

/**
 * The same, for an admin of the support console: in Spanish, the operator's language, as every
 * mail to support is. Admins have no forgot-password: a new password is set by the operator.
 */
export function consoleSignInAttackMail(
  to: string,
  name: string,
  links: { consoleUrl: string; supportEmail: string | null },
): Promise<MailMessage> {
  const t = translator('es', 'operator');
  return renderMail({
    language: 'es',
    to,
    subject: t('signInAttackSubject'),
    blocks: [
      { p: translator('es')('greeting', { name }) },
      { p: t('signInAttackSeen', { consoleUrl: links.consoleUrl }) },
      { p: t('signInAttackStillWorks') },
      {
        p: links.supportEmail
          ? t('signInAttackCompromised', { supportEmail: links.supportEmail })
          : t('signInAttackCompromisedNoAddress'),
      },
      { p: t('signature') },
    ],
  });
}

/**
 * "Your password was changed" (issue 23), with the link to recover the account if it was not
 * the owner. `recoverUrl` is built from the configured origin, never from a request.
 */
export function passwordChangedMail(
  language: Language,
  to: string,
  facts: { name: string; changedAt: string; recoverUrl: string },
): Promise<MailMessage> {
  const t = translator(language);
  return renderMail({
    language,
    to,
    subject: t('account.passwordSubject'),
    blocks: [
      { p: t('greeting', { name: facts.name }) },
      { p: t('account.passwordIntro', { when: facts.changedAt }) },
      { p: t('account.passwordOthers') },
      { p: t('account.passwordNotYou') },
      { link: facts.recoverUrl },
      { p: t('signature') },
    ],
  });
}

/** The confirmation that an account was deleted: what was erased, what is kept and why. */
export function accountDeletedMail(
  language: Language,
  to: string,
  facts: { name: string; keptYears: number },
): Promise<MailMessage> {
  const t = translator(language);
  return renderMail({
    language,
    to,
    subject: t('account.deletedSubject'),
    blocks: [
      { p: t('greeting', { name: facts.name }) },
      { p: t('account.deletedIntro') },
      { p: t('account.deletedErased') },
      { p: t('account.deletedKept', { years: facts.keptYears }) },
      { p: t('account.deletedSubscription') },
      { p: t('account.deletedBroker') },
      { p: t('signature') },
    ],
  });
}
