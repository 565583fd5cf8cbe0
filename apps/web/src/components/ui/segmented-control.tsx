import { ToggleGroup } from 'radix-ui';
import styles from './segmented-control.module.css';

export interface SegmentedOption<Value extends string> {
  value: Value;
  label: string;
}

export interface SegmentedControlProps<Value extends string> {
  /** Names the group for assistive technology. */
  label: string;
  value: Value;
  onValueChange: (value: Value) => void;
  options: readonly SegmentedOption<Value>[];
}

/**
 * One choice among a few, all visible (Radix ToggleGroup, single): arrow keys move between
 * options, and the current one cannot be unselected. Scrolls sideways on a narrow screen.
 */
export function SegmentedControl<Value extends string>({
  label,
  value,
  onValueChange,
  options,
}: SegmentedControlProps<Value>) {
  return (
    <ToggleGroup.Root
      type="single"
      className={styles.root}
      aria-label={label}
      value={value}
      onValueChange={(next) => {
        const option = options.find((candidate) => candidate.value === next);
        if (option) onValueChange(option.value);
      }}
    >
      {options.map((option) => (
        <ToggleGroup.Item key={option.value} value={option.value} className={styles.item}>
          {option.label}
        </ToggleGroup.Item>
      ))}
    </ToggleGroup.Root>
  );
}
