import { Switch as SwitchPrimitive } from 'radix-ui';
import { useId, type ReactNode } from 'react';
import styles from './switch.module.css';

export interface SwitchFieldProps {
  label: ReactNode;
  description?: ReactNode;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
  /** A save in flight: the switch keeps its place and says it is busy. */
  busy?: boolean;
  name?: string;
}

/** An on/off setting with its label and a line of explanation (Radix Switch: role="switch"). */
export function SwitchField({
  label,
  description,
  checked,
  onCheckedChange,
  disabled = false,
  busy = false,
  name,
}: SwitchFieldProps) {
  const id = useId();
  return (
    <div className={styles.field}>
      <div className={styles.text}>
        <label className={styles.label} htmlFor={id}>
          {label}
        </label>
        {description && (
          <p className={styles.description} id={`${id}-description`}>
            {description}
          </p>
        )}
      </div>
      <SwitchPrimitive.Root
        id={id}
        name={name}
        className={styles.root}
        checked={checked}
        onCheckedChange={onCheckedChange}
        disabled={disabled}
        aria-busy={busy || undefined}
        aria-describedby={description ? `${id}-description` : undefined}
      >
        <SwitchPrimitive.Thumb className={styles.thumb} />
      </SwitchPrimitive.Root>
    </div>
  );
}
