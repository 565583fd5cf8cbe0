import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { ApiRequestError } from '../../../lib/api-client';
import { useBillingAction } from '../../../lib/billing-actions';
import { formatDay } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';

/**
 * "Cancelar la renovación" on /payment (decision 148): the money notices send every user here,
 * linked or not (the profile's billing section is for linked users only). A confirmation first;
 * once cancelled, the billing query answers the new state and the page shows it.
 */
export function CancelRenewal({ periodEnd }: { periodEnd: string }) {
  const { t, language } = useTranslation('billing');
  const cancel = useBillingAction();
  return (
    <>
      <ConfirmDialog
        trigger={
          <Button color="secondary" loading={cancel.isPending}>
            {t('section.cancel')}
          </Button>
        }
        title={t('section.cancelTitle')}
        description={t('section.cancelText', { date: formatDay(language, periodEnd) })}
        confirmLabel={t('section.cancelConfirm')}
        cancelLabel={t('section.keep')}
        onConfirm={() => {
          if (!cancel.isPending) cancel.mutate('cancel');
        }}
      />
      {cancel.isError && (
        <p role="alert">
          {cancel.error instanceof ApiRequestError && cancel.error.message
            ? cancel.error.message
            : t('section.actionFailed')}
        </p>
      )}
    </>
  );
}
