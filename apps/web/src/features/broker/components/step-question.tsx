import {
  brokerPlatforms,
  brokerSearchCountries,
  categories,
  experienceLevels,
  type BrokerPlatform,
  type Language,
} from '@tradebot/contract/constants';
import { useId } from 'react';
import { CheckboxField } from '../../../components/ui/checkbox-field';
import { ErrorText, SelectField, type ShownError } from '../../../components/ui/form-field';
import { RadioCardGroup } from '../../../components/ui/radio-card-group';
import { useTranslation } from '../../../lib/i18n';
import {
  depositBands,
  useBrokerSearchStore,
  type DepositBand,
} from '../../../stores/broker-search';
import { useGeoStore } from '../../../stores/geo';
import styles from './broker-search.module.css';

/** Countries by name in the visitor's language; the looked-up country is always among them. */
export function countryOptions(language: Language, lookedUp: string) {
  const names = new Intl.DisplayNames([language], { type: 'region' });
  const codes = new Set<string>(brokerSearchCountries);
  if (/^[A-Z]{2}$/.test(lookedUp)) codes.add(lookedUp);
  return [...codes]
    .map((code) => ({ value: code, label: names.of(code) ?? code }))
    .sort((a, b) => a.label.localeCompare(b.label, language));
}

/** The question of one step page (docs/decisions/050): its controls, bound to the store. */
export function StepQuestion({ step, error }: { step: number; error: ShownError | undefined }) {
  const { t, language } = useTranslation('broker');
  const answers = useBrokerSearchStore();
  const lookedUp = useGeoStore((state) => state.countryCode);

  switch (step) {
    case 1:
      return (
        <SelectField
          name="country"
          label={t('country.label')}
          hint={t('country.hint')}
          placeholder={t('country.placeholder')}
          value={answers.country}
          onValueChange={(country) => {
            answers.answer({ country });
          }}
          options={countryOptions(language, lookedUp)}
          error={error}
        />
      );
    case 2:
      return (
        <fieldset className={styles.question}>
          <legend>{t('markets.legend')}</legend>
          {categories.map((market) => (
            <CheckboxField
              key={market}
              name={`market-${market}`}
              checked={answers.markets.includes(market)}
              onChange={() => {
                answers.toggleMarket(market);
              }}
            >
              {t(`markets.names.${market}`)}
            </CheckboxField>
          ))}
          {error && <QuestionError error={error} />}
        </fieldset>
      );
    case 3:
      return (
        <div className={styles.question}>
          <RadioCardGroup<DepositBand>
            label={t('deposit.legend')}
            value={answers.deposit ?? ('' as DepositBand)}
            onValueChange={(deposit) => {
              answers.answer({ deposit });
            }}
            options={(Object.keys(depositBands) as DepositBand[]).map((band) => ({
              value: band,
              label: t(`deposit.bands.${band}.label`),
              description: t(`deposit.bands.${band}.description`),
            }))}
          />
          {error && <QuestionError error={error} />}
        </div>
      );
    case 4:
      return (
        <div className={styles.question}>
          <RadioCardGroup
            label={t('experience.legend')}
            value={answers.experience ?? ('' as (typeof experienceLevels)[number])}
            onValueChange={(experience) => {
              answers.answer({ experience });
            }}
            options={experienceLevels.map((level) => ({
              value: level,
              label: t(`experience.levels.${level}.label`),
              description: t(`experience.levels.${level}.description`),
            }))}
          />
          {error && <QuestionError error={error} />}
          <SelectField<BrokerPlatform | 'any'>
            name="platform"
            label={t('platform.label')}
            hint={t('platform.hint')}
            value={answers.platform}
            onValueChange={(platform) => {
              answers.answer({ platform });
            }}
            options={[
              { value: 'any', label: t('platform.any') },
              ...brokerPlatforms.map((platform) => ({
                value: platform,
                label: t(`platform.names.${platform}`),
              })),
            ]}
          />
        </div>
      );
    default:
      return (
        <fieldset className={styles.question}>
          <legend>{t('requirements.legend')}</legend>
          <CheckboxField
            name="regulated-only"
            checked={answers.regulatedOnly}
            onChange={(regulatedOnly) => {
              answers.answer({ regulatedOnly });
            }}
          >
            {t('requirements.regulatedOnly')}
          </CheckboxField>
          <CheckboxField
            name="robot-only"
            checked={answers.robotOnly}
            onChange={(robotOnly) => {
              answers.answer({ robotOnly });
            }}
          >
            {t('requirements.robotOnly')}
          </CheckboxField>
        </fieldset>
      );
  }
}

function QuestionError({ error }: { error: ShownError }) {
  const id = useId();
  return (
    <div role="alert">
      <ErrorText id={id} error={error} />
    </div>
  );
}
