import type { Language } from '@tradebot/contract';
import { translator } from '../i18n';
import { renderMail } from '../mail/layout';
import type { MailMessage } from '../repositories/mail.repository';

/** To the new address: the link that makes it the account's (decision 089). */
export function confirmEmailChangeMail(
  language: Language,
  to: string,
  facts: { name: string; oldEmail: string; link: string; validHours: number },
): Promise<MailMessage> {
  const t = translator(language);
  return renderMail({
    language,
    to,
    subject: t('emailChange.confirmSubject'),
    blocks: [
      { p: t('greeting', { name: facts.name }) },
      { p: t('emailChange.confirmIntro', { oldEmail: facts.oldEmail }) },
      { button: t('emailChange.confirmButton'), href: facts.link },
      { p: t('emailChange.confirmValidity', { hours: facts.validHours }) },
      { p: t('emailChange.confirmIgnore') },
      { p: t('signature') },
    ],
  });
}

/**
 * To a new address that already has an account: nothing changed. The requester's answer is the
 * same as for a free address, so it does not tell who is a customer (decision 085's rule).
 */
export function emailTakenMail(language: Language, to: string): Promise<MailMessage> {
  const t = translator(language);
  return renderMail({
    language,
    to,
    subject: t('emailChange.takenSubject'),
    blocks: [
      { p: t('emailChange.takenIntro') },
      { p: t('emailChange.takenIgnore') },
      { p: t('signature') },
    ],
  });
}

/** To the old address: a change was asked for, and the way back if it was not the owner. */
export function emailChangeNoticeMail(
  language: Language,
  to: string,
  facts: { name: string; newEmail: string; undoLink: string; validHours: number; undoDays: number },
): Promise<MailMessage> {
  const t = translator(language);
  return renderMail({
    language,
    to,
    subject: t('emailChange.noticeSubject'),
    blocks: [
      { p: t('greeting', { name: facts.name }) },
      { p: t('emailChange.noticeIntro', { newEmail: facts.newEmail, hours: facts.validHours }) },
      { p: t('emailChange.noticeNotYou', { days: facts.undoDays }) },
      { button: t('emailChange.noticeButton'), href: facts.undoLink },
      { p: t('emailChange.noticeAfter') },
      { p: t('signature') },
    ],
  });
}
