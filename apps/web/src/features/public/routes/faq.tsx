import { translateObject, useTranslation } from '../../../lib/i18n';

interface Question {
  q: string;
  a: string;
}

export default function FaqRoute() {
  const { t } = useTranslation('faq');
  const items = translateObject<Question[]>(t, 'items');
  return (
    <article className="prose" aria-labelledby="faq-title">
      <h1 id="faq-title">{t('title')}</h1>
      <p className="lead">{t('lead')}</p>
      <div className="faq">
        {items.map((item) => (
          <details key={item.q} className="faq__item">
            <summary>{item.q}</summary>
            <p>{item.a}</p>
          </details>
        ))}
      </div>
    </article>
  );
}
