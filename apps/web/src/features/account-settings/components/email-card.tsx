import { changeEmailRequestSchema } from '@tradebot/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Notice } from '../../../components/ui/notice';
import { useTranslation } from '../../../lib/i18n';
import { useChangeEmail } from '../api/change-email';
import styles from '../account-settings.module.css';
import { serverMessage } from './failure-text';
import { FormPasswordField, FormTextField } from '../../../components/form/form-fields';
import { contractResolver, placeServerErrors } from '../../../lib/contract-form';

interface EmailValues {
  email: string;
  current_password: string;
}
const empty: EmailValues = { email: '', current_password: '' };

/**
 * Change the e-mail address (decision 089): the new address and the current password; the
 * address changes when the link mailed to it is opened, and the current one is told.
 */
export function EmailCard({ currentEmail }: { currentEmail: string }) {
  const { t } = useTranslation('account-settings');
  const changeEmail = useChangeEmail();
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const { control, handleSubmit, setError, reset, formState } = useForm<EmailValues>({
    resolver: contractResolver(changeEmailRequestSchema),
    defaultValues: empty,
  });

  const submit = handleSubmit(async (values) => {
    setOutcome(null);
    try {
      const hours = await changeEmail.mutateAsync(values);
      reset(empty);
      setOutcome({
        tone: 'success',
        text: t('email.sent', { email: values.email.trim(), hours, current: currentEmail }),
      });
    } catch (error) {
      if (!placeServerErrors(error, setError, ['email', 'current_password'] as const)) {
        setOutcome({ tone: 'error', text: serverMessage(error) ?? t('email.failed') });
      }
    }
  });

  return (
    <Card title={t('email.title')} titleId="account-email-title">
      <p className={styles.text}>{t('email.intro')}</p>
      <form className={styles.form} noValidate onSubmit={(event) => void submit(event)}>
        <FormTextField
          control={control}
          name="email"
          type="email"
          inputMode="email"
          autoComplete="email"
          label={t('email.new')}
        />
        <FormPasswordField
          control={control}
          name="current_password"
          purpose="current"
          label={t('email.password')}
        />
        {outcome && <Notice tone={outcome.tone}>{outcome.text}</Notice>}
        <div>
          <Button type="submit" color="secondary" loading={formState.isSubmitting}>
            {t('email.submit')}
          </Button>
        </div>
      </form>
    </Card>
  );
}
