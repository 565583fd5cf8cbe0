import { OperatorIdentity } from '../../../components/operator-identity';
import { translateObject, useTranslation } from '../../../lib/i18n';
import styles from './legal-document.module.css';

interface Section {
  title: string;
  paragraphs: string[];
}

const slug = (index: number) => `section-${String(index + 1)}`;

/** Terms and privacy: a title, an intro, a table of contents and numbered sections. */
export function LegalDocument({ document }: { document: 'terms' | 'privacy' }) {
  const { t } = useTranslation('legal');
  const sections = translateObject<Section[]>(t, `${document}.sections`);
  return (
    <article className={styles.document} aria-labelledby="legal-title">
      <header className={styles.intro}>
        <h1 id="legal-title">{t(`${document}.title`)}</h1>
        {/* The privacy policy has a date of its own: consent is recorded against it (decision 087). */}
        <p className={styles.updated}>{t(`${document}.updated`, { defaultValue: t('updated') })}</p>
        <p className={styles.lead}>{t(`${document}.intro`)}</p>
      </header>
      <nav className={styles.toc} aria-labelledby="toc-title">
        <h2 id="toc-title" className={styles.tocTitle}>
          {t('contents')}
        </h2>
        <ol>
          {sections.map((section, index) => (
            <li key={section.title}>
              <a href={`#${slug(index)}`}>{section.title}</a>
            </li>
          ))}
        </ol>
      </nav>
      <div className={styles.body}>
        {sections.map((section, index) => (
          <section
            key={section.title}
            id={slug(index)}
            className={styles.section}
            aria-labelledby={`${slug(index)}-title`}
          >
            <h2 id={`${slug(index)}-title`}>{section.title}</h2>
            {section.paragraphs.map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
          </section>
        ))}
        <div className={styles.operator}>
          <OperatorIdentity headingLevel="h2" />
        </div>
      </div>
    </article>
  );
}
