import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function NotFoundRoute() {
  const { t } = useTranslation();
  return (
    <section className="not-found" aria-labelledby="not-found-title">
      <h1 id="not-found-title">{t('notFound.title')}</h1>
      <Link className="button button--primary button--md" to="/">
        {t('notFound.back')}
      </Link>
    </section>
  );
}
