import { useQueryClient } from '@tanstack/react-query';
import { updatePromocodeRequestSchema } from '@tradebot/contract';
import { useState } from 'react';
import { useController, useForm } from 'react-hook-form';
import { billingQueryKey, reloadUserConfig } from '../lib/billing';
import { ApiRequestError } from '../lib/api-client';
import { contractResolver, placeServerErrors } from '../lib/contract-form';
import { failureMessage } from '../lib/form-errors';
import { formatDay } from '../lib/format';
import { useTranslation } from '../lib/i18n';
import {
  promocodeQuery,
  promocodeRefused,
  usePromocodeStatus,
  type PromocodeStatus,
} from '../lib/use-promocode-status';
import { updatePromocode } from '../lib/update-promocode';
import { useAppStore } from '../stores/app';
import { Button } from './ui/button';
import { shownError } from './form/form-fields';
import { TextField } from './ui/form-field';
import styles from './promocode-form.module.css';

interface PromocodeValues {
  promocode: string;
}

function statusText(status: PromocodeStatus, t: (key: string) => string): string | undefined {
  switch (status.state) {
    case 'validating':
      return t('promocode.validating');
    case 'valid':
      return status.benefit === 'free_month' ? t('promocode.valid') : t('promocode.validGeneric');
    case 'empty':
    case 'invalid':
    case 'unknown':
      return undefined;
  }
}

/**
 * spec §7 update-promocode: a signed-in user enters a code they were sent (the MESGRATIS
 * e-mail from /promo/mesgratis), on /payment and in the profile's billing section. The code is
 * checked as it is typed (spec §4: validating, valid, invalid); applied, a free month starts at
 * once and the billing screens read the new state.
 */
export function PromocodeForm({ onApplied }: { onApplied?: (trialEndsAt: string | null) => void }) {
  const { t, language } = useTranslation('billing');
  const queryClient = useQueryClient();
  const showMessage = useAppStore((state) => state.showMessage);
  const [applied, setApplied] = useState<{ trialEndsAt: string | null } | null>(null);
  const { control, handleSubmit, setError, formState } = useForm<PromocodeValues>({
    shouldFocusError: false,
    resolver: contractResolver(updatePromocodeRequestSchema),
    defaultValues: { promocode: '' },
  });
  const {
    field: { ref, ...field },
    fieldState,
  } = useController({ name: 'promocode', control });
  const status = usePromocodeStatus(field.value);

  const submit = handleSubmit(async ({ promocode }) => {
    const checkedValid = status.state === 'valid';
    // A code still being checked is waited for, not a reason to drop the click (issue 39).
    if (await promocodeRefused(queryClient, field.value)) return;
    try {
      const result = await updatePromocode(promocode, language);
      setApplied({ trialEndsAt: result.trialEndsAt });
      onApplied?.(result.trialEndsAt);
      // `authorized` changed: the guards and both billing screens must see it.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: billingQueryKey }),
        reloadUserConfig().catch(() => undefined),
      ]);
    } catch (error) {
      if (error instanceof ApiRequestError && error.fieldErrors.promocode) {
        // Refused at apply: the check's answer held is out of date (the code ended or ran out
        // since), so the field stops saying "valid", and a code we had called valid is said to
        // have ended since, not merely to be invalid (issue 39). The price shown is unchanged:
        // a code gives a free month, never a discount.
        queryClient.setQueryData(promocodeQuery(field.value.trim()).queryKey, {
          valid: false,
          benefit: null,
        });
        if (checkedValid) {
          setError('promocode', { type: 'server', message: t('promocode.endedSinceChecked') });
          return;
        }
      }
      if (!placeServerErrors(error, setError, ['promocode'])) {
        showMessage(failureMessage(error, 'billing:promocode.failed'));
      }
    }
  });

  const error =
    fieldState.error?.type !== 'server' && status.state === 'invalid'
      ? { key: 'contract:validation.promocodeInvalid' }
      : shownError(fieldState.error);

  if (applied !== null)
    return (
      <p className={styles.applied} role="status">
        {applied.trialEndsAt
          ? t('promocode.applied', { date: formatDay(language, applied.trialEndsAt) })
          : t('promocode.appliedGeneric')}
      </p>
    );

  return (
    <form className={styles.form} noValidate onSubmit={(event) => void submit(event)}>
      <TextField
        ref={ref}
        name={field.name}
        autoComplete="off"
        autoCapitalize="characters"
        label={t('promocode.label')}
        hint={t('promocode.hint')}
        value={field.value}
        onChange={field.onChange}
        onBlur={field.onBlur}
        status={statusText(status, t)}
        error={error}
      />
      <Button type="submit" color="secondary" loading={formState.isSubmitting}>
        {t('promocode.submit')}
      </Button>
    </form>
  );
}
