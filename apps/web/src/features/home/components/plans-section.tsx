import { AppLink } from '../../../components/ui/app-link';
import { PlanCards } from '../../../components/plan-cards';
import { useTranslation } from '../../../lib/i18n';

/** The home page's plans, with their prices (issue 10). */
export function PlansSection() {
  const { t } = useTranslation('plans');
  return (
    <section aria-labelledby="plans-title">
      <h2 id="plans-title">{t('title')}</h2>
      <p>{t('lead')}</p>
      <PlanCards
        action={(_plan, name) => (
          <AppLink className="button button--primary button--md" to="/register">
            {t('startWith', { plan: name })}
          </AppLink>
        )}
      />
      <p className="callout">{t('freeMonth')}</p>
      <p className="muted small">{t('honest')}</p>
    </section>
  );
}
