import { emailSubscriptionRequestSchema } from '@tradebot/contract';
import { useState } from 'react';
import { FormEmailField } from '../../../components/form/form-fields';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ErrorText } from '../../../components/ui/form-field';
import { ApiRequestError } from '../../../lib/api-client';
import { useContractForm } from '../../../lib/contract-form';
import { translateObject, useTranslation } from '../../../lib/i18n';
import { subscribeEmail } from '../api/subscribe-email';
import styles from '../promo.module.css';

/** The promotion this landing page subscribes to. */
export const freeMonthPromo = 'mesgratis';

/** /promo/mesgratis: the free-month landing page and its e-mail subscription form. */
export default function FreeMonthRoute() {
  const { t } = useTranslation('promo');
  const [done, setDone] = useState(false);
  const benefits = translateObject<string[]>(t, 'freeMonth.benefits');
  const { control, failure, sending, submitWith } = useContractForm({
    schema: emailSubscriptionRequestSchema,
    defaultValues: { email: '' },
    toRequest: ({ email }) => ({ email, promo: freeMonthPromo }),
    failureKey: 'forms:errors.generic',
    inline: true,
  });

  const onSubmit = submitWith(async ({ email }) => {
    try {
      await subscribeEmail({ email, promo: freeMonthPromo });
      setDone(true);
    } catch (error) {
      if (!(error instanceof ApiRequestError)) throw error;
      const promo = error.fieldErrors.promo?.[0];
      if (promo === undefined || Object.keys(error.fieldErrors).length > 1) throw error;
      // The promotion itself is not available now: nothing the visitor typed is wrong, so it
      // is said under the form, not under the e-mail.
      throw new ApiRequestError(error.status, error.code, promo);
    }
  });

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
              <FormEmailField
                control={control}
                name="email"
                label={t('freeMonth.emailLabel')}
                hint={t('freeMonth.emailHint')}
              />
              {failure && (
                <div role="alert">
                  <ErrorText id="promo-failure" error={failure} />
                </div>
              )}
              <Button type="submit" label={t('freeMonth.submit')} loading={sending} block />
            </form>
          )}
        </Card>
      </div>
      <p className={styles.risk}>{t('freeMonth.risk')}</p>
    </div>
  );
}
