import { RadioGroup } from 'radix-ui';
import type { ReactNode } from 'react';
import { useHydrated } from '../../lib/use-hydrated';
import styles from './radio-card-group.module.css';

export interface RadioCardOption<Value extends string> {
  value: Value;
  label: ReactNode;
  description?: ReactNode;
}

export interface RadioCardGroupProps<Value extends string> {
  /** Names the group for assistive technology. */
  label: string;
  value: Value;
  onValueChange: (value: Value) => void;
  options: readonly RadioCardOption<Value>[];
  disabled?: boolean;
  busy?: boolean;
}

/** One choice among several, each explained (Radix RadioGroup: arrow keys move and select). */
export function RadioCardGroup<Value extends string>({
  label,
  value,
  onValueChange,
  options,
  disabled = false,
  busy = false,
}: RadioCardGroupProps<Value>) {
  // Until a prerendered page hydrates its radios have no handler: they say so by being disabled
  // rather than ignoring a click (decision 053).
  const hydrated = useHydrated();
  return (
    <RadioGroup.Root
      className={styles.root}
      aria-label={label}
      aria-busy={busy || undefined}
      value={value}
      disabled={disabled || !hydrated}
      onValueChange={(next) => {
        const option = options.find((candidate) => candidate.value === next);
        if (option) onValueChange(option.value);
      }}
    >
      {options.map((option) => (
        <label key={option.value} className={styles.card}>
          <RadioGroup.Item value={option.value} className={styles.radio}>
            <RadioGroup.Indicator className={styles.indicator} />
          </RadioGroup.Item>
          <span className={styles.text}>
            <span className={styles.label}>{option.label}</span>
            {option.description && <span className={styles.description}>{option.description}</span>}
          </span>
        </label>
      ))}
    </RadioGroup.Root>
  );
}
