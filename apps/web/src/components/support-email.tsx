import { useTranslation } from '../lib/i18n';

/**
 * The public support address (issue 23): visitors without an account cannot use Contact,
 * which needs a login (spec §4), so the footer and the FAQ give them an address to write to.
 */
export function SupportEmail({ className }: { className?: string }) {
  const { t } = useTranslation();
  const email = __SITE__.supportEmail;
  return (
    <p className={className}>
      {t('footer.support')} <a href={`mailto:${email}`}>{email}</a>.
    </p>
  );
}
