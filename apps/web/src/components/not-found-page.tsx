import { AppLink } from './ui/app-link';
import { useTranslation } from '../lib/i18n';

/** Shared: the catch-all route and any route whose parameter names nothing show it. */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <section className="not-found" aria-labelledby="not-found-title">
      <h1 id="not-found-title">{t('notFound.title')}</h1>
      <AppLink className="button button--primary button--md" to="/">
        {t('notFound.back')}
      </AppLink>
    </section>
  );
}
