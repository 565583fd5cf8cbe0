import type { BrokerSearchRequest } from '@tradebot/contract';
import { plans } from '@tradebot/contract/constants';
import { useEffect, useState, type SubmitEvent } from 'react';
import { useMatches, useNavigate } from 'react-router';
import { AppLink } from '../../../components/ui/app-link';
import { Button } from '../../../components/ui/button';
import type { ShownError } from '../../../components/ui/form-field';
import { Notice } from '../../../components/ui/notice';
import { formatCents } from '../../../lib/format';
import { translateObject, useTranslation } from '../../../lib/i18n';
import { useNumberLocale } from '../../../lib/number-locale';
import {
  depositBands,
  firstUnansweredStep,
  useBrokerSearchStore,
  type BrokerSearchAnswers,
} from '../../../stores/broker-search';
import { useGeoStore } from '../../../stores/geo';
import { BrokerResults } from '../components/broker-results';
import { StepQuestion } from '../components/step-question';
import styles from './broker-step.module.css';

interface Step {
  title: string;
  help: string;
}

/** What one how-it-works page explains (decision 159). */
interface Topic {
  title: string;
  paragraphs: string[];
  more?: string;
}

/** Where each topic's "more" link goes, by step. */
const topicLinks: Readonly<Record<number, string>> = {
  2: '/track-record',
  3: '/asked-questions',
  5: '/#plans-title',
};

interface StepHandle {
  step?: number;
  stepBase?: string;
}

const stepPath = (base: string, step: number) => (step === 1 ? base : `${base}/${String(step)}`);

/** The answers as the API takes them, once every question is answered. */
function searchRequest(answers: BrokerSearchAnswers): BrokerSearchRequest | null {
  if (firstUnansweredStep(answers) < 5 || !answers.deposit || !answers.experience) return null;
  return {
    country: answers.country,
    markets: answers.markets,
    deposit: depositBands[answers.deposit],
    experience: answers.experience,
    platform: answers.platform,
    regulated_only: answers.regulatedOnly,
    robot_only: answers.robotOnly,
  };
}

/**
 * The broker search (spec §2 searching-broker, and how-it-works): five step pages, one question
 * each, the fifth with the brokers of the directory that fit (docs/decisions/050). Under
 * how-it-works each page first explains one part of the product (what the robot does, where the
 * money is, what it costs) and the question follows, optional until the results (decision 159).
 */
export default function BrokerStepRoute() {
  const { t, language } = useTranslation('broker');
  const numberLocale = useNumberLocale(language);
  const navigate = useNavigate();
  const handle = (useMatches().at(-1)?.handle ?? {}) as StepHandle;
  const step = handle.step ?? 1;
  const base = handle.stepBase ?? '/how-it-works';
  const explains = base === '/how-it-works';
  const steps = translateObject<Step[]>(t, 'steps');
  // The prices are the contract's, as the plans show them.
  const topics = t('howItWorks.steps', {
    returnObjects: true,
    monthly: formatCents(numberLocale, plans.monthly.priceCents),
    yearly: formatCents(numberLocale, plans.yearly.priceCents),
  }) as unknown as Topic[];
  const topic = explains ? topics[step - 1] : undefined;
  const answers = useBrokerSearchStore();
  const lookedUpCountry = useGeoStore((state) => state.countryCode);
  // The step whose Next was pressed unanswered: its error shows until it is answered.
  const [refusedAt, setRefusedAt] = useState<number | null>(null);
  const current = steps[step - 1];
  const pending = firstUnansweredStep(answers);

  // The country the guards looked up answers the first question until the visitor changes it.
  useEffect(() => {
    if (!answers.country && lookedUpCountry) answers.answer({ country: lookedUpCountry });
  }, [answers, lookedUpCountry]);
  const error: ShownError | undefined =
    refusedAt === step && pending <= step ? { key: 'broker:required' } : undefined;

  if (!current) return null;
  const request = step === 5 ? searchRequest(answers) : null;

  const onNext = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    // The explainer never holds a reader back; its results say which answer is missing.
    if (!explains && pending <= step) {
      setRefusedAt(step);
      return;
    }
    void navigate(stepPath(base, step + 1));
  };

  const question = (
    <>
      <p>{current.help}</p>
      <form noValidate onSubmit={onNext}>
        <StepQuestion step={step} error={error} />
        <div className={styles.stepNav}>
          {step > 1 ? (
            <Button
              to={stepPath(base, step - 1)}
              color="secondary"
              label={t('previous')}
              leftIcon={{ name: 'arrow-left' }}
            />
          ) : (
            <span />
          )}
          {step < steps.length && (
            <Button type="submit" label={t('next')} rightIcon={{ name: 'arrow-right' }} />
          )}
        </div>
      </form>
    </>
  );
  const moreLink = topicLinks[step];

  return (
    <article className={styles.page} aria-labelledby="step-title">
      <header className={styles.intro}>
        <p className={styles.eyebrow}>{t(explains ? 'howItWorks.title' : 'title')}</p>
        <p className={styles.note}>{t(explains ? 'howItWorks.lead' : 'lead')}</p>
      </header>
      <nav className={styles.steps} aria-label={t(explains ? 'howItWorks.stepsNav' : 'stepsNav')}>
        <ol className={styles.stepper}>
          {steps.map((item, index) => (
            <li key={item.title}>
              <AppLink
                to={stepPath(base, index + 1)}
                className={styles.step}
                aria-current={index + 1 === step ? 'step' : undefined}
              >
                <span className={styles.stepNumber}>{index + 1}</span>
                <span>{explains ? topics[index]?.title : item.title}</span>
              </AppLink>
            </li>
          ))}
        </ol>
      </nav>
      <div className={styles.body}>
        <p className={styles.note}>{t('progress', { step })}</p>
        {topic ? (
          <>
            <div className={styles.explainer}>
              <h1 id="step-title">{topic.title}</h1>
              {topic.paragraphs.map((paragraph) => (
                <p key={paragraph}>{paragraph}</p>
              ))}
              {topic.more && moreLink && (
                <p>
                  <AppLink to={moreLink}>{topic.more}</AppLink>
                </p>
              )}
            </div>
            <section className={styles.question} aria-labelledby="question-title">
              <p className={styles.eyebrow}>{t('howItWorks.question', { step })}</p>
              <h2 id="question-title">{current.title}</h2>
              {question}
            </section>
          </>
        ) : (
          <>
            <h1 id="step-title">{current.title}</h1>
            {question}
          </>
        )}
        {step === 5 &&
          (request ? (
            <BrokerResults request={request} />
          ) : (
            <Notice
              tone="warning"
              title={t('unanswered', { step: pending })}
              action={
                <Button
                  to={stepPath(base, pending)}
                  color="secondary"
                  size="sm"
                  label={t('goToStep', { step: pending })}
                />
              }
            />
          ))}
      </div>
    </article>
  );
}
