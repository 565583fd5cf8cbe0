import { useTranslation } from '../lib/i18n';
import { AppLink } from './ui/app-link';

/**
 * The public support address (issue 23): visitors without an account cannot use Contact,
 * which needs a login (spec §4), so the footer and the FAQ give them an address to write to.
 * A build that was given none (the embedded demo) makes none up: it points to the contact
 * form, the one way to support it has (issue 39).
 */
export function SupportEmail({ className }: { className?: string }) {
  const { t } = useTranslation();
  const email = __SITE__.supportEmail;
  if (email === null) {
    return (
      <p className={className}>
        {t('footer.supportForm.before')}
        <AppLink to="/contact">{t('footer.supportForm.link')}</AppLink>
        {t('footer.supportForm.after')}
      </p>
    );
  }
  return (
    <p className={className}>
      {t('footer.support')} <a href={`mailto:${email}`}>{email}</a>.
    </p>
  );
}
