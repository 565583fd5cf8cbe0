import { AppLink } from '../../../components/ui/app-link';
import { categories, registrationBlockedCountries } from '@tradebot/contract/constants';
import { useEffect } from 'react';

import { useTranslation } from '../../../lib/i18n';
import { useGeoStore } from '../../../stores/geo';
import { PlansSection } from '../components/plans-section';

const features = ['watch', 'control', 'broker', 'live'] as const;
const rules = ['perOperation', 'cap', 'takeProfit', 'stopLoss'] as const;

export default function HomeRoute() {
  const { t } = useTranslation('home');
  const countryCode = useGeoStore((state) => state.countryCode);
  const ensureCountryCode = useGeoStore((state) => state.ensureCountryCode);
  useEffect(() => {
    void ensureCountryCode();
  }, [ensureCountryCode]);
  const registrationBlocked = registrationBlockedCountries.includes(countryCode);

  return (
    <div className="home">
      <section className="hero" aria-labelledby="home-title">
        <h1 id="home-title">{t('title')}</h1>
        <p className="hero__lead">{t('lead')}</p>
        {registrationBlocked ? (
          <p className="notice" role="status">
            {t('regionBlocked')}
          </p>
        ) : (
          <div className="hero__actions">
            <AppLink className="button button--primary button--md" to="/register">
              {t('ctaPrimary')}
            </AppLink>
            <AppLink className="button button--secondary button--md" to="/how-it-works">
              {t('ctaSecondary')}
            </AppLink>
          </div>
        )}
      </section>

      <section aria-labelledby="features-title">
        <h2 id="features-title">{t('featuresTitle')}</h2>
        <ul className="card-grid">
          {features.map((feature) => (
            <li key={feature} className="card">
              <h3>{t(`features.${feature}.title`)}</h3>
              <p>{t(`features.${feature}.text`)}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="rules-title">
        <h2 id="rules-title">{t('rulesTitle')}</h2>
        <p>{t('rulesLead')}</p>
        <ul className="rule-list">
          {rules.map((rule) => (
            <li key={rule}>{t(`rules.${rule}`)}</li>
          ))}
        </ul>
        <p className="callout">{t('rulesHonest')}</p>
      </section>

      <section aria-labelledby="categories-title">
        <h2 id="categories-title">{t('categoriesTitle')}</h2>
        <ul className="chip-list">
          {categories.map((category) => (
            <li key={category} className="chip">
              {t(`categories.${category}`)}
            </li>
          ))}
        </ul>
      </section>

      <PlansSection />

      <section className="risk-warning" aria-labelledby="risk-title">
        <h2 id="risk-title">{t('riskTitle')}</h2>
        <p>{t('risk')}</p>
      </section>
    </div>
  );
}
