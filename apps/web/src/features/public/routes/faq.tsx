import { SupportEmail } from '../../../components/support-email';
import { translateObject, useTranslation } from '../../../lib/i18n';
import styles from './faq.module.css';

interface Question {
  q: string;
  a: string;
}

export default function FaqRoute() {
  const { t } = useTranslation('faq');
  const items = translateObject<Question[]>(t, 'items');
  return (
    <article className={styles.page} aria-labelledby="faq-title">
      <header className={styles.intro}>
        <h1 id="faq-title">{t('title')}</h1>
        <p className={styles.lead}>{t('lead')}</p>
        <SupportEmail className={styles.lead} />
      </header>
      {/* details/summary: each answer opens with the keyboard, and without JavaScript. */}
      <div className={styles.items}>
        {items.map((item) => (
          <details key={item.q} className={styles.item}>
            <summary className={styles.question}>{item.q}</summary>
            <p className={styles.answer}>{item.a}</p>
          </details>
        ))}
      </div>
    </article>
  );
}
