import type { BrokerSearchRequest } from '@tradebot/contract';
import { useEffect, useState, type SubmitEvent } from 'react';
import { useMatches, useNavigate } from 'react-router';
import { AppLink } from '../../../components/ui/app-link';
import { Button } from '../../../components/ui/button';
import type { ShownError } from '../../../components/ui/form-field';
import { Notice } from '../../../components/ui/notice';
import { translateObject, useTranslation } from '../../../lib/i18n';
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
 * each, the fifth with the brokers of the directory that fit (docs/decisions/050).
 */
export default function BrokerStepRoute() {
  const { t } = useTranslation('broker');
  const navigate = useNavigate();
  const handle = (useMatches().at(-1)?.handle ?? {}) as StepHandle;
  const step = handle.step ?? 1;
  const base = handle.stepBase ?? '/how-it-works';
  const steps = translateObject<Step[]>(t, 'steps');
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
    if (pending <= step) {
      setRefusedAt(step);
      return;
    }
    void navigate(stepPath(base, step + 1));
  };

  return (
    <article className={styles.page} aria-labelledby="step-title">
      <header className={styles.intro}>
        <p className={styles.eyebrow}>{t('title')}</p>
        <p className={styles.note}>{t('lead')}</p>
      </header>
      <nav className={styles.steps} aria-label={t('stepsNav')}>
        <ol className={styles.stepper}>
          {steps.map((item, index) => (
            <li key={item.title}>
              <AppLink
                to={stepPath(base, index + 1)}
                className={styles.step}
                aria-current={index + 1 === step ? 'step' : undefined}
              >
                <span className={styles.stepNumber}>{index + 1}</span>
                <span>{item.title}</span>
              </AppLink>
            </li>
          ))}
        </ol>
      </nav>
      <div className={styles.body}>
        <p className={styles.note}>{t('progress', { step })}</p>
        <h1 id="step-title">{current.title}</h1>
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
