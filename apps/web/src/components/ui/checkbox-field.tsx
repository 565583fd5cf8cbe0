import { useId, type ReactNode, type Ref } from 'react';
import { useHydrated } from '../../lib/use-hydrated';
import { ErrorText, type ShownError } from './form-field';
import styles from './form-field.module.css';

/** A checkbox with its label (which may hold links) and its error. */
export function CheckboxField({
  name,
  checked,
  onChange,
  children,
  error,
  ref,
}: {
  ref?: Ref<HTMLInputElement> | undefined;
  name: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: ReactNode;
  error?: ShownError | undefined;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  // A tick on a prerendered page before it hydrates would be undone when React takes the box
  // over: until then it takes none (decision 053).
  const hydrated = useHydrated();
  return (
    <div className={`${styles.field} ${styles.checkbox}`} data-invalid={error ? true : undefined}>
      <input
        ref={ref}
        id={id}
        name={name}
        type="checkbox"
        checked={checked}
        disabled={!hydrated}
        onChange={(event) => {
          onChange(event.target.checked);
        }}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      />
      <label htmlFor={id}>{children}</label>
      {error && <ErrorText id={errorId} error={error} />}
    </div>
  );
}
