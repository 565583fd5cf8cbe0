import { useId } from 'react';
import { useTranslation } from '../lib/i18n';
import styles from './operator-identity.module.css';

/**
 * Who runs the service (legal name, registration, address, contact), from the build's
 * configuration (site-config.ts). The embedded demo's invented operator says it is an example.
 */
export function OperatorIdentity({ headingLevel }: { headingLevel: 'h2' | 'p' }) {
  const { t } = useTranslation();
  const operator = __SITE__.operator;
  const Heading = headingLevel;
  const titleId = useId();
  return (
    <section className={styles.operator} aria-labelledby={titleId}>
      <Heading id={titleId} className={styles.title}>
        {t('footer.operator.title')}
      </Heading>
      {operator.example ? (
        <p className={styles.example}>
          <strong>{t('footer.operator.example')}</strong>
        </p>
      ) : null}
      <address className={styles.details}>
        <span>{operator.legalName}</span>
        <span>
          {t('footer.operator.registration')}: {operator.registration}
        </span>
        <span>
          {t('footer.operator.address')}: {operator.address}
        </span>
        <span>
          {t('footer.operator.email')}: <a href={`mailto:${operator.email}`}>{operator.email}</a>
        </span>
      </address>
    </section>
  );
}
