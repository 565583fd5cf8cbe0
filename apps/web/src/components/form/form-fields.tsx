import { readIssueMessage } from '@tradebot/contract/constants';
import type { ReactNode } from 'react';
import {
  useController,
  type Control,
  type FieldError,
  type FieldPath,
  type FieldValues,
} from 'react-hook-form';
import { CheckboxField } from '../ui/checkbox-field';
import {
  SelectField,
  TextAreaField,
  TextField,
  type SelectFieldProps,
  type ShownError,
  type TextAreaFieldProps,
  type TextFieldProps,
} from '../ui/form-field';
// Registers the contract's catalogue (the `contract:` keys below) with i18next.
import '../../lib/form-errors';

/**
 * A field's react-hook-form error as the design system shows it: the server's words as they
 * came, or the contract's catalogue message (`contractResolver` wrote it) in the current language.
 */
export function shownError(error: FieldError | undefined): ShownError | undefined {
  if (error?.message === undefined) return undefined;
  if (error.type === 'server') return { text: error.message };
  const { key, count } = readIssueMessage(error.message);
  return count === undefined ? { key: `contract:${key}` } : { key: `contract:${key}`, count };
}

/** The form's control (whatever its submitted values become) and the field's name. */
interface Controlled<Values extends FieldValues, Submitted> {
  control: Control<Values, unknown, Submitted>;
  name: FieldPath<Values>;
}

/** A TextField driven by react-hook-form (our fields are controlled: useController). */
export function FormTextField<Values extends FieldValues, Submitted = Values>({
  control,
  name,
  clean,
  ...props
}: Omit<TextFieldProps, 'name' | 'value' | 'onChange' | 'onBlur' | 'error' | 'ref'> &
  Controlled<Values, Submitted> & {
    /** Rewrites what is typed before it is kept (digits only, for a code). */
    clean?: (typed: string) => string;
  }) {
  const {
    field: { ref, ...field },
    fieldState,
  } = useController({ name, control });
  return (
    <TextField
      {...props}
      ref={ref}
      name={field.name}
      value={field.value ?? ''}
      onChange={(event) => {
        field.onChange(clean ? clean(event.target.value) : event.target.value);
      }}
      onBlur={field.onBlur}
      error={shownError(fieldState.error)}
    />
  );
}

/** A TextAreaField driven by react-hook-form. */
export function FormTextAreaField<Values extends FieldValues, Submitted = Values>({
  control,
  name,
  ...props
}: Omit<TextAreaFieldProps, 'name' | 'value' | 'onChange' | 'onBlur' | 'error' | 'ref'> &
  Controlled<Values, Submitted>) {
  const {
    field: { ref, ...field },
    fieldState,
  } = useController({ name, control });
  return (
    <TextAreaField
      {...props}
      ref={ref}
      name={field.name}
      value={field.value ?? ''}
      onChange={field.onChange}
      onBlur={field.onBlur}
      error={shownError(fieldState.error)}
    />
  );
}

/** A SelectField driven by react-hook-form. */
export function FormSelectField<
  Values extends FieldValues,
  Submitted = Values,
  Option extends string = string,
>({
  control,
  name,
  ...props
}: Omit<
  SelectFieldProps<Option>,
  'name' | 'value' | 'onChange' | 'onBlur' | 'error' | 'ref' | 'onValueChange'
> &
  Controlled<Values, Submitted>) {
  const {
    field: { ref, ...field },
    fieldState,
  } = useController({ name, control });
  return (
    <SelectField<Option>
      {...props}
      ref={ref}
      name={field.name}
      value={field.value ?? ''}
      onChange={field.onChange}
      onBlur={field.onBlur}
      error={shownError(fieldState.error)}
    />
  );
}

/** A CheckboxField driven by react-hook-form. */
export function FormCheckboxField<Values extends FieldValues, Submitted = Values>({
  control,
  name,
  children,
}: Controlled<Values, Submitted> & { children: ReactNode }) {
  const {
    field: { ref, ...field },
    fieldState,
  } = useController({ name, control });
  return (
    <CheckboxField
      ref={ref}
      name={field.name}
      checked={field.value === true}
      onChange={field.onChange}
      error={shownError(fieldState.error)}
    >
      {children}
    </CheckboxField>
  );
}
