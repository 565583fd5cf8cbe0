import { deleteAccountRequestSchema } from '@tradebot/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Card } from '../../../components/ui/card';
import { RadioCardGroup } from '../../../components/ui/radio-card-group';
import { useTranslation } from '../../../lib/i18n';
import { useAppStore } from '../../../stores/app';
import { useAuthStore } from '../../../stores/auth';
import { useUnlinkAccount } from '../api/unlink-account';
import styles from '../account-settings.module.css';
import { serverMessage } from './failure-text';
import { PasswordConfirmation } from './password-confirmation';
import { contractResolver, placeServerErrors } from '../../../lib/contract-form';

interface UnlinkValues {
  password: string;
}
type Operations = 'leave' | 'close';

/**
 * Ending the link to the trading platform or broker (decision 091), shown to linked users: the
 * robot stops, open operations are left to the user or closed at the market (their choice), the
 * stored credentials or tokens are erased. The password confirms, then a dialog asks once more.
 */
export function UnlinkAccountCard() {
  const { t } = useTranslation('account-settings');
  const linked = useAuthStore((state) => state.userConfig?.linked ?? false);
  const refreshSettings = useAuthStore((state) => state.refreshSettings);
  const showMessage = useAppStore((state) => state.showMessage);
  const unlink = useUnlinkAccount();
  const [operations, setOperations] = useState<Operations>('leave');
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const { control, handleSubmit, setError, getValues, reset } = useForm<UnlinkValues>({
    resolver: contractResolver(deleteAccountRequestSchema),
    defaultValues: { password: '' },
  });
  if (!linked) return null;

  const ask = handleSubmit(() => {
    setFailure(null);
    setConfirming(true);
  });

  const confirm = async () => {
    setConfirming(false);
    try {
      const result = await unlink.mutateAsync({
        password: getValues('password'),
        closeOperations: operations === 'close',
      });
      reset();
      showMessage({
        text:
          result.leftOpen > 0
            ? t('unlink.doneLeftOpen', { count: result.leftOpen })
            : t('unlink.done'),
      });
      // The guards follow the server: the account is no longer linked.
      await refreshSettings().catch(() => undefined);
    } catch (error) {
      if (!placeServerErrors(error, setError, ['password'])) {
        setFailure(serverMessage(error) ?? t('unlink.failed'));
      }
    }
  };

  return (
    <Card title={t('unlink.title')} titleId="account-unlink-title" tone="danger">
      <p className={styles.text}>{t('unlink.intro')}</p>
      <ul className={styles.consequences}>
        <li>{t('unlink.robot')}</li>
        <li>{t('unlink.erased')}</li>
        <li>{t('unlink.kept')}</li>
        <li>{t('unlink.ctrader')}</li>
      </ul>
      <form className={styles.form} noValidate onSubmit={(event) => void ask(event)}>
        <RadioCardGroup<Operations>
          label={t('unlink.operationsLabel')}
          value={operations}
          onValueChange={setOperations}
          options={[
            {
              value: 'leave',
              label: t('unlink.leave'),
              description: t('unlink.leaveDescription'),
            },
            {
              value: 'close',
              label: t('unlink.close'),
              description: t('unlink.closeDescription'),
            },
          ]}
        />
        <PasswordConfirmation
          control={control}
          name="password"
          passwordLabel={t('unlink.password')}
          failure={failure}
          open={confirming}
          onClose={() => {
            setConfirming(false);
          }}
          pending={unlink.isPending}
          submitLabel={t('unlink.submit')}
          title={t('unlink.confirmTitle')}
          description={operations === 'close' ? t('unlink.confirmClose') : t('unlink.confirmLeave')}
          confirmLabel={t('unlink.confirm')}
          onConfirm={() => void confirm()}
        />
      </form>
    </Card>
  );
}
