import { deleteAccountRequestSchema, paymentRecordsKeptYears } from '@tradebot/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { Card } from '../../../components/ui/card';
import { endSession } from '../../../lib/end-session';
import { useTranslation } from '../../../lib/i18n';
import { routePath } from '../../../lib/route-paths';
import { useAppStore } from '../../../stores/app';
import { useDeleteAccount } from '../api/delete-account';
import styles from '../account-settings.module.css';
import { serverMessage } from './failure-text';
import { PasswordConfirmation } from './password-confirmation';
import { contractResolver, placeServerErrors } from '../../../lib/contract-form';

interface DeleteValues {
  password: string;
}

/**
 * "Delete my account", said plainly: what stops, what ends, what is erased and what is kept,
 * for how long and why (decision 080). The password confirms, then a dialog asks once more.
 */
export function DeleteAccountCard() {
  const { t } = useTranslation('account-settings');
  const navigate = useNavigate();
  const showMessage = useAppStore((state) => state.showMessage);
  const deleteAccount = useDeleteAccount();
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const { control, handleSubmit, setError, getValues } = useForm<DeleteValues>({
    resolver: contractResolver(deleteAccountRequestSchema),
    defaultValues: { password: '' },
  });

  // The form is checked first; only then does the dialog ask.
  const ask = handleSubmit(() => {
    setFailure(null);
    setConfirming(true);
  });

  const confirm = async () => {
    setConfirming(false);
    try {
      await deleteAccount.mutateAsync({ password: getValues('password') });
    } catch (error) {
      if (!placeServerErrors(error, setError, ['password'])) {
        setFailure(serverMessage(error) ?? t('delete.failed'));
      }
      return;
    }
    // The server ended every session with the account: this one ends here too.
    endSession();
    showMessage({ key: 'account-settings:delete.done' });
    await navigate(routePath('Home'));
  };

  return (
    <Card title={t('delete.title')} titleId="account-delete-title" tone="danger">
      <p className={styles.text}>{t('delete.intro')}</p>
      <ul className={styles.consequences}>
        <li>{t('delete.robot')}</li>
        <li>{t('delete.subscription')}</li>
        <li>{t('delete.erased')}</li>
        <li>{t('delete.kept', { years: paymentRecordsKeptYears })}</li>
        <li>{t('delete.broker')}</li>
        <li>{t('delete.sessions')}</li>
      </ul>
      <form className={styles.form} noValidate onSubmit={(event) => void ask(event)}>
        <PasswordConfirmation
          control={control}
          name="password"
          passwordLabel={t('delete.password')}
          failure={failure}
          open={confirming}
          onClose={() => {
            setConfirming(false);
          }}
          pending={deleteAccount.isPending}
          submitLabel={t('delete.submit')}
          title={t('delete.confirmTitle')}
          description={t('delete.confirmText')}
          confirmLabel={t('delete.confirm')}
          onConfirm={() => void confirm()}
        />
      </form>
    </Card>
  );
}
