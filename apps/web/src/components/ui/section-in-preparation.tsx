import { AppLink } from './app-link';
import { useTranslation } from '../../lib/i18n';

export type PreparedSection = 'payment' | 'linkAccount' | 'tradingLogin';

/** An honest placeholder for a screen a later issue builds: it says so, and links home. */
export function SectionInPreparation({ section }: { section: PreparedSection }) {
  const { t } = useTranslation('deferred');
  return (
    <section className="not-found" aria-labelledby="section-title">
      <h1 id="section-title">{t(`titles.${section}`)}</h1>
      <p>{t('text')}</p>
      <AppLink className="button button--primary button--md" to="/">
        {t('back')}
      </AppLink>
    </section>
  );
}
