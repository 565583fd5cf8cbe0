import { AppLink } from '../../../components/ui/app-link';
import { useMatches } from 'react-router';
import { Icon } from '../../../components/ui/icon';
import { translateObject, useTranslation } from '../../../lib/i18n';

interface Step {
  title: string;
  paragraphs: string[];
  tips: string[];
}

interface StepHandle {
  step?: number;
  stepBase?: string;
}

const stepPath = (base: string, step: number) => (step === 1 ? base : `${base}/${String(step)}`);

/** Broker search / how it works: five guided step pages with previous and next (spec §2). */
export default function BrokerStepRoute() {
  const { t } = useTranslation('broker');
  const handle = (useMatches().at(-1)?.handle ?? {}) as StepHandle;
  const step = handle.step ?? 1;
  const base = handle.stepBase ?? '/how-it-works';
  const steps = translateObject<Step[]>(t, 'steps');
  const current = steps[step - 1];
  if (!current) return null;

  return (
    <article className="prose" aria-labelledby="step-title">
      <p className="eyebrow">{t('title')}</p>
      <p className="muted">{t('lead')}</p>
      <nav aria-label={t('stepsNav')}>
        <ol className="stepper">
          {steps.map((item, index) => (
            <li key={item.title}>
              <AppLink
                to={stepPath(base, index + 1)}
                className="stepper__item"
                aria-current={index + 1 === step ? 'step' : undefined}
              >
                <span className="stepper__number">{index + 1}</span>
                <span className="stepper__label">{item.title}</span>
              </AppLink>
            </li>
          ))}
        </ol>
      </nav>
      <p className="muted">{t('progress', { step })}</p>
      <h1 id="step-title">{current.title}</h1>
      {current.paragraphs.map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
      <section className="callout" aria-labelledby="tips-title">
        <h2 id="tips-title">{t('tipsTitle')}</h2>
        <ul className="rule-list">
          {current.tips.map((tip) => (
            <li key={tip}>{tip}</li>
          ))}
        </ul>
      </section>
      <div className="step-nav">
        {step > 1 ? (
          <AppLink className="button button--secondary button--md" to={stepPath(base, step - 1)}>
            <Icon name="arrow-left" />
            {t('previous')}
          </AppLink>
        ) : (
          <span />
        )}
        {step < steps.length ? (
          <AppLink className="button button--primary button--md" to={stepPath(base, step + 1)}>
            {t('next')}
            <Icon name="arrow-right" />
          </AppLink>
        ) : (
          <AppLink className="button button--primary button--md" to="/register">
            {t('start')}
            <Icon name="arrow-right" />
          </AppLink>
        )}
      </div>
    </article>
  );
}
