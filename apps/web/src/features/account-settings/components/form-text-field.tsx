import { isMessageKey } from '@tradebot/contract/constants';
import {
  useController,
  type Control,
  type FieldError,
  type FieldPath,
  type FieldValues,
} from 'react-hook-form';
import { TextField, type ShownError, type TextFieldProps } from '../../../components/ui/form-field';
// Registers the contract's catalogue (the `contract:` keys below) with i18next.
import '../../../lib/form-errors';

/** A field's react-hook-form error as the design system shows it (as in PromocodeForm). */
export function shownError(error: FieldError | undefined): ShownError | undefined {
  if (error?.message === undefined) return undefined;
  if (error.type === 'server') return { text: error.message };
  return {
    key: `contract:${isMessageKey(error.message) ? error.message : 'validation.invalidValue'}`,
  };
}

/** A TextField driven by react-hook-form (our TextField is controlled: useController). */
export function FormTextField<Values extends FieldValues>({
  control,
  name,
  ...props
}: Omit<TextFieldProps, 'name' | 'value' | 'onChange' | 'onBlur' | 'error'> & {
  control: Control<Values>;
  name: FieldPath<Values>;
}) {
  const { field, fieldState } = useController({ name, control });
  return (
    <TextField
      {...props}
      name={field.name}
      value={field.value ?? ''}
      onChange={field.onChange}
      onBlur={field.onBlur}
      error={shownError(fieldState.error)}
    />
  );
}
