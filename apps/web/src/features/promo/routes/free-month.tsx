import { emailSubscriptionRequestSchema } from '@tradebot/contract';
import { useState, type SubmitEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmailField, ErrorText } from '../../../components/ui/form-field';
import {
  failureMessage,
  fieldErrorsFromServer,
  validate,
  type FieldErrors,
} from '../../../lib/form-errors';
import { translateObject, useTranslation } from '../../../lib/i18n';
import { subscribeEmail } from '../api/subscribe-email';
import styles from '../promo.module.css';

/** The promotion this landing page subscribes to. */
export const freeMonthPromo = 'mesgratis';

type Outcome = 'idle' | 'sending' | 'subscribed';

/** /promo/mesgratis: the free-month landing page and its e-mail subscription form. */
export default function FreeMonthRoute() {
  const { t } = useTranslation('promo');
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<{ key: string } | { text: string } | null>(null);
  const [outcome, setOutcome] = useState<Outcome>('idle');
  const benefits = translateObject<string[]>(t, 'freeMonth.benefits');

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFailure(null);
    const checked = validate(emailSubscriptionRequestSchema, { email, promo: freeMonthPromo });
    if (checked.errors) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    setOutcome('sending');
    try {
      setOutcome(await subscribeEmail({ email: checked.data.email, promo: freeMonthPromo }));
    } catch (error) {
      setOutcome('idle');
      const { promo, ...fields } = fieldErrorsFromServer(error);
      if (Object.keys(fields).length) setErrors(fields);
      // The promotion itself is not available now: nothing the visitor typed is wrong.
      else if (promo && 'text' in promo) setFailure(promo);
      else setFailure(failureMessage(error, 'forms:errors.generic'));
    }
  };

  const done = outcome === 'subscribed';

  return (
    <div className={styles.page}>
      <section className={styles.hero} aria-labelledby="promo-title">
        <h1 id="promo-title">{t('freeMonth.title')}</h1>
        <p className={styles.lead}>{t('freeMonth.lead')}</p>
      </section>
      <div className={styles.columns}>
        <section aria-labelledby="benefits-title">
          <h2 id="benefits-title">{t('freeMonth.benefitsTitle')}</h2>
          <ul className={styles.list}>
            {benefits.map((benefit) => (
              <li key={benefit}>{benefit}</li>
            ))}
          </ul>
        </section>
        <Card title={t('freeMonth.formTitle')} titleId="form-title">
          <div role="status" aria-live="polite">
            {done && <p className={styles.success}>{t('freeMonth.subscribed')}</p>}
          </div>
          {done ? (
            <Button to="/register" label={t('freeMonth.registerCta')} />
          ) : (
            <form noValidate className={styles.form} onSubmit={(event) => void onSubmit(event)}>
              <EmailField
                label={t('freeMonth.emailLabel')}
                hint={t('freeMonth.emailHint')}
                value={email}
                onChange={(event) => {
                  setEmail(event.target.value);
                }}
                error={errors.email}
              />
              {failure && (
                <div role="alert">
                  <ErrorText id="promo-failure" error={failure} />
                </div>
              )}
              <Button
                type="submit"
                label={t('freeMonth.submit')}
                loading={outcome === 'sending'}
                block
              />
            </form>
          )}
        </Card>
      </div>
      <p className={styles.risk}>{t('freeMonth.risk')}</p>
    </div>
  );
}
