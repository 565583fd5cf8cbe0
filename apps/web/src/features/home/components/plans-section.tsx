import { AppLink } from '../../../components/ui/app-link';
import { Button } from '../../../components/ui/button';
import { PlanCards } from '../../../components/plan-cards';
import { useTranslation } from '../../../lib/i18n';
import styles from './plans-section.module.css';

/** The home page's plans, with their prices (issue 10). */
export function PlansSection() {
  const { t } = useTranslation('plans');
  return (
    <section className={styles.section} aria-labelledby="plans-title">
      <h2 id="plans-title">{t('title')}</h2>
      <p className={styles.lead}>{t('lead')}</p>
      <PlanCards
        action={(plan, name) => (
          // The choice rides on the link and is kept by /register for the payment page (decision 086).
          <Button to={`/register?plan=${plan}`} label={t('startWith', { plan: name })} />
        )}
      />
      {/* The free month's code is mailed from /promo/mesgratis, never printed here (decision 072). */}
      <p className={styles.freeMonth}>
        {t('freeMonth')} <AppLink to="/promo/mesgratis">{t('freeMonthLink')}</AppLink>
      </p>
      <p className={styles.honest}>{t('honest')}</p>
    </section>
  );
}
