import type { Control, FieldValues, Path } from 'react-hook-form';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Notice } from '../../../components/ui/notice';
import { useTranslation } from '../../../lib/i18n';
import { FormPasswordField } from '../../../components/form/form-fields';

/**
 * The end of a destructive card (deleting the account, unlinking): the password, what went
 * wrong, and the button whose dialog asks once more. Opening the dialog is the form's to decide
 * (once it is valid); closing it is the user's.
 */
export function PasswordConfirmation<Values extends FieldValues>(props: {
  control: Control<Values>;
  name: Path<Values>;
  passwordLabel: string;
  failure: string | null;
  open: boolean;
  onClose: () => void;
  pending: boolean;
  submitLabel: string;
  title: string;
  description: string;
  confirmLabel: string;
  onConfirm: () => void;
}) {
  const { t } = useTranslation('account-settings');
  return (
    <>
      <FormPasswordField
        control={props.control}
        name={props.name}
        purpose="current"
        label={props.passwordLabel}
      />
      {props.failure && <Notice tone="error">{props.failure}</Notice>}
      <div>
        <ConfirmDialog
          tone="danger"
          open={props.open}
          onOpenChange={(open) => {
            if (!open) props.onClose();
          }}
          trigger={
            <Button type="submit" color="danger" loading={props.pending}>
              {props.submitLabel}
            </Button>
          }
          title={props.title}
          description={props.description}
          confirmLabel={props.confirmLabel}
          cancelLabel={t('cancel')}
          onConfirm={props.onConfirm}
        />
      </div>
    </>
  );
}
