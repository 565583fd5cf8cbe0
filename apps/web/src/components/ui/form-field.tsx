import {
  useId,
  type InputHTMLAttributes,
  type Ref,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import { useTranslation } from '../../lib/i18n';
import { useHydrated } from '../../lib/use-hydrated';
import styles from './form-field.module.css';

export type ShownError = { key: string; count?: number } | { text: string };

/** An error under a field: a catalogue key (with count) or a server's localized text. */
export function ErrorText({ id, error }: { id: string; error: ShownError }) {
  const { t } = useTranslation();
  return (
    <p id={id} className={styles.error}>
      {'text' in error ? error.text : t(error.key, { count: error.count })}
    </p>
  );
}

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  /** The input itself (a form library focuses the first field in error through it). */
  ref?: Ref<HTMLInputElement> | undefined;
  name: string;
  label: string;
  hint?: string;
  error?: ShownError | undefined;
  status?: ReactNode;
}

/** A labelled input with its hint, live status and error, wired for screen readers. */
export function TextField({ name, label, hint, error, status, ...input }: TextFieldProps) {
  const id = useId();
  // What is typed into a prerendered page before it hydrates would be lost when React takes the
  // field over: until then the field takes no typing (docs/decisions/053).
  const hydrated = useHydrated();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const statusId = `${id}-status`;
  const describedBy = [hint && hintId, status && statusId, error && errorId].filter(Boolean);
  return (
    <div className={styles.field} data-invalid={error ? true : undefined}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      <input
        {...input}
        readOnly={input.readOnly === true || !hydrated}
        data-fixed={input.readOnly === true || undefined}
        id={id}
        name={name}
        className={styles.input}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy.length ? describedBy.join(' ') : undefined}
      />
      {hint && (
        <p id={hintId} className={styles.hint}>
          {hint}
        </p>
      )}
      {status && (
        <p id={statusId} className={styles.hint} role="status">
          {status}
        </p>
      )}
      {error && <ErrorText id={errorId} error={error} />}
    </div>
  );
}

/** An e-mail input: the right keyboard on phones, and the browser's saved addresses. */
export function EmailField(
  props: Omit<TextFieldProps, 'name' | 'type' | 'autoComplete' | 'inputMode'>,
) {
  return <TextField name="email" type="email" autoComplete="email" inputMode="email" {...props} />;
}

/** The ids that tie a field's label, hint and error to its control. */
function useFieldIds(hint: string | undefined, error: ShownError | undefined) {
  const id = useId();
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean);
  return {
    id,
    hintId: `${id}-hint`,
    errorId: `${id}-error`,
    describedBy: describedBy.length ? describedBy.join(' ') : undefined,
  };
}

function FieldFrame({
  ids,
  label,
  hint,
  error,
  children,
}: {
  ids: ReturnType<typeof useFieldIds>;
  label: string;
  hint?: string | undefined;
  error?: ShownError | undefined;
  children: ReactNode;
}) {
  return (
    <div className={styles.field} data-invalid={error ? true : undefined}>
      <label htmlFor={ids.id} className={styles.label}>
        {label}
      </label>
      {children}
      {hint && (
        <p id={ids.hintId} className={styles.hint}>
          {hint}
        </p>
      )}
      {error && <ErrorText id={ids.errorId} error={error} />}
    </div>
  );
}

export interface TextAreaFieldProps extends Omit<
  TextareaHTMLAttributes<HTMLTextAreaElement>,
  'id'
> {
  ref?: Ref<HTMLTextAreaElement> | undefined;
  name: string;
  label: string;
  hint?: string;
  error?: ShownError | undefined;
}

/** A labelled multi-line input, with its hint and error. */
export function TextAreaField({ name, label, hint, error, ...textarea }: TextAreaFieldProps) {
  const ids = useFieldIds(hint, error);
  return (
    <FieldFrame ids={ids} label={label} hint={hint} error={error}>
      <textarea
        rows={6}
        {...textarea}
        id={ids.id}
        name={name}
        className={`${styles.input} ${styles.multiline}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={ids.describedBy}
      />
    </FieldFrame>
  );
}

export interface SelectFieldProps<Value extends string = string> extends Omit<
  SelectHTMLAttributes<HTMLSelectElement>,
  'id' | 'value'
> {
  ref?: Ref<HTMLSelectElement> | undefined;
  name: string;
  label: string;
  hint?: string;
  error?: ShownError | undefined;
  options: readonly { value: Value; label: string }[];
  value?: Value | '';
  /** Told the chosen option's value (typed), besides any `onChange`. */
  onValueChange?: (value: Value) => void;
  /** Shown while nothing is chosen; not selectable. */
  placeholder?: string;
}

/** A labelled native select: the platform's own picker on phones, the keyboard everywhere. */
export function SelectField<Value extends string = string>({
  name,
  label,
  hint,
  error,
  options,
  onValueChange,
  placeholder,
  ...select
}: SelectFieldProps<Value>) {
  const ids = useFieldIds(hint, error);
  // A choice made on a prerendered page before it hydrates would be undone when React takes the
  // select over (it sets the value it renders): until then the select takes none (decision 053).
  const hydrated = useHydrated();
  return (
    <FieldFrame ids={ids} label={label} hint={hint} error={error}>
      <select
        {...select}
        disabled={select.disabled === true || !hydrated}
        id={ids.id}
        name={name}
        className={styles.input}
        onChange={(event) => {
          select.onChange?.(event);
          const chosen = options.find((option) => option.value === event.target.value);
          if (chosen) onValueChange?.(chosen.value);
        }}
        aria-invalid={error ? true : undefined}
        aria-describedby={ids.describedBy}
      >
        {placeholder !== undefined && (
          <option value="" disabled>
            {placeholder}
          </option>
        )}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}
