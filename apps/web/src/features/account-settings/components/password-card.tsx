import { changePasswordRequestSchema } from '@tradebot/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Notice } from '../../../components/ui/notice';
import { useTranslation } from '../../../lib/i18n';
import { useChangePassword } from '../api/change-password';
import styles from '../account-settings.module.css';
import { serverMessage } from './failure-text';
import { FormPasswordField } from '../../../components/form/form-fields';
import { contractResolver, placeServerErrors } from '../../../lib/contract-form';

interface PasswordValues {
  current_password: string;
  password: string;
  confirm_password: string;
}
const empty: PasswordValues = { current_password: '', password: '', confirm_password: '' };

/** Change the password: the current one first; the other sessions end; an e-mail confirms. */
export function PasswordCard() {
  const { t } = useTranslation('account-settings');
  const changePassword = useChangePassword();
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const { control, handleSubmit, setError, reset, formState } = useForm<PasswordValues>({
    resolver: contractResolver(changePasswordRequestSchema),
    defaultValues: empty,
  });

  const submit = handleSubmit(async (values) => {
    setOutcome(null);
    try {
      const signedOut = await changePassword.mutateAsync(values);
      reset(empty);
      setOutcome({
        tone: 'success',
        text:
          signedOut === 0
            ? t('password.changedAlone')
            : t('password.changed', { count: signedOut }),
      });
    } catch (error) {
      const fields = ['current_password', 'password', 'confirm_password'] as const;
      if (!placeServerErrors(error, setError, fields)) {
        setOutcome({ tone: 'error', text: serverMessage(error) ?? t('password.failed') });
      }
    }
  });

  return (
    <Card title={t('password.title')} titleId="account-password-title">
      <p className={styles.text}>{t('password.intro')}</p>
      <form className={styles.form} noValidate onSubmit={(event) => void submit(event)}>
        <FormPasswordField
          control={control}
          name="current_password"
          purpose="current"
          label={t('password.current')}
        />
        <FormPasswordField
          control={control}
          name="password"
          purpose="new"
          label={t('password.new')}
          hint={t('password.hint')}
        />
        <FormPasswordField
          control={control}
          name="confirm_password"
          purpose="new"
          label={t('password.confirm')}
        />
        {outcome && <Notice tone={outcome.tone}>{outcome.text}</Notice>}
        <div>
          <Button type="submit" loading={formState.isSubmitting}>
            {t('password.submit')}
          </Button>
        </div>
      </form>
    </Card>
  );
}
