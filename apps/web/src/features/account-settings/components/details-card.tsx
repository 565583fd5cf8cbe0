import { updatePhoneRequestSchema, type AccountDetails } from '@tradebot/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { FactList } from '../../../components/ui/fact-list';
import { Notice } from '../../../components/ui/notice';
import { useTranslation } from '../../../lib/i18n';
import { useUpdatePhone } from '../api/account-details';
import styles from '../account-settings.module.css';
import { serverMessage } from './failure-text';
import { FormTextField } from '../../../components/form/form-fields';
import { contractResolver, placeServerErrors } from '../../../lib/contract-form';

interface PhoneValues {
  phone: string;
}

/** Name and e-mail (read only), and the phone, which the user changes here. */
export function DetailsCard({ details }: { details: AccountDetails }) {
  const { t } = useTranslation('account-settings');
  const updatePhone = useUpdatePhone();
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const { control, handleSubmit, setError, reset, formState } = useForm<PhoneValues>({
    resolver: contractResolver(updatePhoneRequestSchema),
    defaultValues: { phone: details.phone ?? '' },
  });

  const submit = handleSubmit(async ({ phone }) => {
    setOutcome(null);
    try {
      const stored = await updatePhone.mutateAsync({ phone });
      reset({ phone: stored ?? '' });
      setOutcome({ tone: 'success', text: stored ? t('phone.saved') : t('phone.removed') });
    } catch (error) {
      if (!placeServerErrors(error, setError, ['phone'])) {
        setOutcome({ tone: 'error', text: serverMessage(error) ?? t('phone.failed') });
      }
    }
  });

  return (
    <Card title={t('details.title')} titleId="account-details-title">
      <FactList
        facts={[
          { term: t('details.name'), value: `${details.name} ${details.last_name}` },
          {
            term: t('details.email'),
            value: <span className={styles.email}>{details.email}</span>,
          },
        ]}
      />
      <form className={styles.form} noValidate onSubmit={(event) => void submit(event)}>
        <FormTextField
          control={control}
          name="phone"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          label={t('phone.label')}
          hint={t('phone.hint')}
        />
        {outcome && <Notice tone={outcome.tone}>{outcome.text}</Notice>}
        <div>
          <Button type="submit" color="secondary" loading={formState.isSubmitting}>
            {t('phone.submit')}
          </Button>
        </div>
      </form>
    </Card>
  );
}
