import type { Language } from '@tradebot/contract';
import { translator } from '../i18n';
import { renderMail } from '../mail/layout';
import type { MailMessage } from '../repositories/mail.repository';
import type { SupportContact } from './mail-templates';

/** The link that creates the account (decision 085). */
export function confirmRegistrationMail(
  language: Language,
  to: string,
  name: string,
  link: string,
  validHours: number,
): Promise<MailMessage> {
  const t = translator(language);
  return renderMail({
    language,
    to,
    subject: t('registration.confirmSubject'),
    blocks: [
      { p: t('greeting', { name }) },
      { p: t('registration.confirmIntro') },
      { button: t('registration.confirmButton'), href: link },
      { p: t('registration.confirmValidity', { hours: validHours }) },
      { p: t('registration.confirmOtherDevice') },
      { p: t('registration.confirmIgnore') },
      { p: t('signature') },
    ],
  });
}

/** A registration for an address that already has an account: what to do instead. */
export function alreadyRegisteredMail(
  language: Language,
  to: string,
  name: string,
  links: { login: string; recover: string },
): Promise<MailMessage> {
  const t = translator(language);
  return renderMail({
    language,
    to,
    subject: t('registration.existingSubject'),
    blocks: [
      { p: t('greeting', { name }) },
      { p: t('registration.existingIntro') },
      { button: t('registration.existingLogin'), href: links.login },
      { button: t('registration.existingRecover'), href: links.recover },
      { p: t('registration.existingIgnore') },
      { p: t('signature') },
    ],
  });
}

/**
 * Sent once the account exists (issue 23): what happens next, the risk said plainly, and
 * where to ask. Links come from the configured origin only.
 */
export function welcomeMail(
  language: Language,
  to: string,
  name: string,
  links: { plan: string; linkPlatform: string; robot: string } & SupportContact,
): Promise<MailMessage> {
  const t = translator(language);
  return renderMail({
    language,
    to,
    subject: t('registration.welcomeSubject'),
    blocks: [
      { p: t('greeting', { name }) },
      { p: t('registration.welcomeIntro') },
      { p: t('registration.welcomeNext') },
      { p: t('registration.welcomePlan') },
      { button: t('registration.welcomePlanButton'), href: links.plan },
      { p: t('registration.welcomeLink') },
      { button: t('registration.welcomeLinkButton'), href: links.linkPlatform },
      { p: t('registration.welcomeRobot') },
      { button: t('registration.welcomeRobotButton'), href: links.robot },
      { p: t('registration.welcomeRisk') },
      {
        p: links.supportEmail
          ? t('registration.welcomeSupport', { address: links.supportEmail })
          : t('registration.welcomeSupportForm', { url: links.contactUrl }),
      },
      { p: t('signature') },
    ],
  });
}
