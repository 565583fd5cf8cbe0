import { useTranslation } from '../lib/i18n';
import { StatusPage } from './status-page';
import { Button } from './ui/button';

/** Shared: the catch-all route and any route whose parameter names nothing show it. */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <StatusPage
      titleId="not-found-title"
      title={t('notFound.title')}
      action={<Button to="/" label={t('notFound.back')} />}
    />
  );
}
