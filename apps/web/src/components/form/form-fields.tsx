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

/**
 * What every field takes from react-hook-form (our fields are controlled: useController):
 * its name, value and handlers, its error as shown, and the ref through which the form puts
 * the focus on the first field in error.
 */
function useFormField<Values extends FieldValues, Submitted>({
  control,
  name,
}: Controlled<Values, Submitted>) {
  const {
    field: { ref, ...field },
    fieldState,
  } = useController({ name, control });
  return { ...field, ref, error: shownError(fieldState.error) };
}

type Bound = 'name' | 'value' | 'onChange' | 'onBlur' | 'error' | 'ref';

/** A TextField driven by react-hook-form. */
export function FormTextField<Values extends FieldValues, Submitted = Values>({
  control,
  name,
  clean,
  ...props
}: Omit<TextFieldProps, Bound> &
  Controlled<Values, Submitted> & {
    /** Rewrites what is typed before it is kept (digits only, for a code). */
    clean?: (typed: string) => string;
  }) {
  const { value, onChange, ...field } = useFormField({ control, name });
  return (
    <TextField
      {...props}
      {...field}
      value={value ?? ''}
      onChange={(event) => {
        onChange(clean ? clean(event.target.value) : event.target.value);
      }}
    />
  );
}

/** An e-mail FormTextField: the right keyboard on phones, and the browser's saved addresses. */
export function FormEmailField<Values extends FieldValues, Submitted = Values>(
  props: Omit<TextFieldProps, Bound | 'type' | 'autoComplete' | 'inputMode'> &
    Controlled<Values, Submitted>,
) {
  return <FormTextField type="email" autoComplete="email" inputMode="email" {...props} />;
}

/**
 * A password FormTextField. `purpose` tells browsers and password managers what to offer: the
 * saved password (`current`) or a new one to generate and save (`new`).
 */
export function FormPasswordField<Values extends FieldValues, Submitted = Values>({
  purpose,
  ...props
}: Omit<TextFieldProps, Bound | 'type' | 'autoComplete'> &
  Controlled<Values, Submitted> & { purpose: 'current' | 'new' }) {
  return (
    <FormTextField
      type="password"
      autoComplete={purpose === 'new' ? 'new-password' : 'current-password'}
      {...props}
    />
  );
}

/** A TextAreaField driven by react-hook-form. */
export function FormTextAreaField<Values extends FieldValues, Submitted = Values>({
  control,
  name,
  ...props
}: Omit<TextAreaFieldProps, Bound> & Controlled<Values, Submitted>) {
  const { value, ...field } = useFormField({ control, name });
  return <TextAreaField {...props} {...field} value={value ?? ''} />;
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
}: Omit<SelectFieldProps<Option>, Bound | 'onValueChange'> & Controlled<Values, Submitted>) {
  const { value, ...field } = useFormField({ control, name });
  return <SelectField<Option> {...props} {...field} value={value ?? ''} />;
}

/** A CheckboxField driven by react-hook-form. */
export function FormCheckboxField<Values extends FieldValues, Submitted = Values>({
  control,
  name,
  children,
}: Controlled<Values, Submitted> & { children: ReactNode }) {
  const { value, onBlur: _onBlur, ...field } = useFormField({ control, name });
  return (
    <CheckboxField {...field} checked={value === true}>
      {children}
    </CheckboxField>
  );
}
