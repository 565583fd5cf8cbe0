import { AppLink } from '../../../components/ui/app-link';
import { useTranslation } from '../../../lib/i18n';

export default function NotFoundRoute() {
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
