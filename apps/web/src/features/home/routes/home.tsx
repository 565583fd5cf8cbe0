import { Button } from '../../../components/ui/button';
import { categories, registrationBlockedCountries } from '@tradebot/contract/constants';
import { useEffect } from 'react';

import { translateObject, useTranslation } from '../../../lib/i18n';
import { useGeoStore } from '../../../stores/geo';
import { PlansSection } from '../components/plans-section';
import { ProductPicture } from '../components/product-picture';
import { RealPricesSection } from '../components/real-prices-section';
import styles from './home.module.css';

const features = ['watch', 'control', 'broker', 'live'] as const;

interface Fact {
  value: string;
  text: string;
}

interface Step {
  title: string;
  text: string;
}

export default function HomeRoute() {
  const { t } = useTranslation('home');
  const countryCode = useGeoStore((state) => state.countryCode);
  const ensureCountryCode = useGeoStore((state) => state.ensureCountryCode);
  useEffect(() => {
    void ensureCountryCode();
  }, [ensureCountryCode]);
  const registrationBlocked = registrationBlockedCountries.includes(countryCode);
  const facts = translateObject<Fact[]>(t, 'facts');
  const steps = translateObject<Step[]>(t, 'decides.steps');

  return (
    <div className={styles.home}>
      <section className={styles.hero} aria-labelledby="home-title">
        <div className={styles.heroText}>
          <h1 id="home-title" className={styles.title}>
            {t('title')}
          </h1>
          <p className={styles.lead}>{t('lead')}</p>
          {registrationBlocked ? (
            <p className={styles.blocked} role="status">
              {t('regionBlocked')}
            </p>
          ) : (
            <div className={styles.actions}>
              <Button to="/register" label={t('ctaPrimary')} />
              <Button to="/how-it-works" color="secondary" label={t('ctaSecondary')} />
            </div>
          )}
        </div>
        <dl className={styles.facts}>
          {facts.map((fact) => (
            <div key={fact.value} className={styles.fact}>
              <dt className={styles.factValue}>{fact.value}</dt>
              <dd className={styles.factText}>{fact.text}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="features-title">
        <h2 id="features-title">{t('featuresTitle')}</h2>
        <ul className={styles.cards}>
          {features.map((feature) => (
            <li key={feature} className={styles.card}>
              <h3>{t(`features.${feature}.title`)}</h3>
              <p>{t(`features.${feature}.text`)}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="decides-title">
        <h2 id="decides-title">{t('decides.title')}</h2>
        <p className={styles.sectionLead}>{t('decides.lead')}</p>
        <ol className={styles.steps}>
          {steps.map((step) => (
            <li key={step.title} className={styles.step}>
              <h3>{step.title}</h3>
              <p>{step.text}</p>
            </li>
          ))}
        </ol>
        <p className={styles.honest}>{t('decides.honest')}</p>
      </section>

      <RealPricesSection />

      <section aria-labelledby="product-title">
        <h2 id="product-title">{t('product.title')}</h2>
        <p className={styles.sectionLead}>{t('product.lead')}</p>
        <ProductPicture />
      </section>

      <PlansSection />

      <section aria-labelledby="categories-title">
        <h2 id="categories-title">{t('categoriesTitle')}</h2>
        <ul className={styles.chips}>
          {categories.map((category) => (
            <li key={category} className={styles.chip}>
              {t(`categories.${category}`)}
            </li>
          ))}
        </ul>
      </section>

      <section className={styles.risk} aria-labelledby="risk-title">
        <h2 id="risk-title">{t('riskTitle')}</h2>
        <p>{t('risk')}</p>
      </section>
    </div>
  );
}
