import { categories, registrationBlockedCountries } from '@tradebot/contract';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useGeoStore } from '../../geo/store';

const features = ['watch', 'control', 'broker', 'live'] as const;
const rules = ['perOperation', 'cap', 'takeProfit', 'stopLoss'] as const;
const plans = ['monthly', 'gift', 'refund', 'guarantee', 'support'] as const;

export function HomeRoute() {
  const { t } = useTranslation();
  const countryCode = useGeoStore((state) => state.countryCode);
  const ensureCountryCode = useGeoStore((state) => state.ensureCountryCode);
  useEffect(() => {
    void ensureCountryCode();
  }, [ensureCountryCode]);
  const registrationBlocked = registrationBlockedCountries.includes(countryCode);

  return (
    <div className="home">
      <section className="hero" aria-labelledby="home-title">
        <h1 id="home-title">{t('home.title')}</h1>
        <p className="hero__lead">{t('home.lead')}</p>
        {registrationBlocked ? (
          <p className="notice" role="status">
            {t('home.regionBlocked')}
          </p>
        ) : (
          <div className="hero__actions">
            <Link className="button button--primary button--md" to="/register">
              {t('home.ctaPrimary')}
            </Link>
            <Link className="button button--secondary button--md" to="/how-it-works">
              {t('home.ctaSecondary')}
            </Link>
          </div>
        )}
      </section>

      <section aria-labelledby="features-title">
        <h2 id="features-title">{t('home.featuresTitle')}</h2>
        <ul className="card-grid">
          {features.map((feature) => (
            <li key={feature} className="card">
              <h3>{t(`home.features.${feature}.title`)}</h3>
              <p>{t(`home.features.${feature}.text`)}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="rules-title">
        <h2 id="rules-title">{t('home.rulesTitle')}</h2>
        <p>{t('home.rulesLead')}</p>
        <ul className="rule-list">
          {rules.map((rule) => (
            <li key={rule}>{t(`home.rules.${rule}`)}</li>
          ))}
        </ul>
        <p className="callout">{t('home.rulesHonest')}</p>
      </section>

      <section aria-labelledby="categories-title">
        <h2 id="categories-title">{t('home.categoriesTitle')}</h2>
        <ul className="chip-list">
          {categories.map((category) => (
            <li key={category} className="chip">
              {t(`home.categories.${category}`)}
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="plans-title">
        <h2 id="plans-title">{t('home.plansTitle')}</h2>
        <ul className="rule-list">
          {plans.map((plan) => (
            <li key={plan}>{t(`home.plans.${plan}`)}</li>
          ))}
        </ul>
      </section>

      <section className="risk-warning" aria-labelledby="risk-title">
        <h2 id="risk-title">{t('home.riskTitle')}</h2>
        <p>{t('home.risk')}</p>
      </section>
    </div>
  );
}
