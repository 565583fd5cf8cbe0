import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { useTranslation } from '../../lib/i18n';
import { useHydrated } from '../../lib/use-hydrated';

export type ShownError = { key: string; count?: number } | { text: string };

/** An error under a field: a catalogue key (with count) or a server's localized text. */
export function ErrorText({ id, error }: { id: string; error: ShownError }) {
  const { t } = useTranslation();
  return (
    <p id={id} className="field__error">
      {'text' in error ? error.text : t(error.key, { count: error.count })}
    </p>
  );
}

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
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
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <input
        {...input}
        readOnly={input.readOnly === true || !hydrated}
        id={id}
        name={name}
        className="field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy.length ? describedBy.join(' ') : undefined}
      />
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
      {status && (
        <p id={statusId} className="field__status" role="status">
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

export interface SelectFieldProps<Value extends string> {
  name: string;
  label: string;
  hint?: string;
  value: Value | '';
  onChange: (value: Value) => void;
  options: readonly { value: Value; label: string }[];
  /** Shown while nothing is chosen; not selectable. */
  placeholder?: string;
  error?: ShownError | undefined;
}

/** A labelled native select: the phone's own picker, the keyboard's own behaviour. */
export function SelectField<Value extends string>({
  name,
  label,
  hint,
  value,
  onChange,
  options,
  placeholder,
  error,
}: SelectFieldProps<Value>) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint && hintId, error && errorId].filter(Boolean);
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <select
        id={id}
        name={name}
        className="field__input"
        value={value}
        onChange={(event) => {
          const chosen = options.find((option) => option.value === event.target.value);
          if (chosen) onChange(chosen.value);
        }}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy.length ? describedBy.join(' ') : undefined}
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
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
      {error && <ErrorText id={errorId} error={error} />}
    </div>
  );
}
