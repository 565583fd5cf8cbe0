import { OperatorIdentity } from '../../../components/operator-identity';
import { translateObject, useTranslation } from '../../../lib/i18n';

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
    <article className="prose" aria-labelledby="legal-title">
      <h1 id="legal-title">{t(`${document}.title`)}</h1>
      <p className="muted">{t('updated')}</p>
      <p className="lead">{t(`${document}.intro`)}</p>
      <nav className="toc" aria-labelledby="toc-title">
        <h2 id="toc-title" className="toc__title">
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
      {sections.map((section, index) => (
        <section key={section.title} id={slug(index)} aria-labelledby={`${slug(index)}-title`}>
          <h2 id={`${slug(index)}-title`}>{section.title}</h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </section>
      ))}
      <OperatorIdentity headingLevel="h2" />
    </article>
  );
}
