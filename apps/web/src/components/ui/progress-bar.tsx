import { useId, type ReactNode } from 'react';
import styles from './meter.module.css';

export interface ProgressBarProps {
  label: ReactNode;
  /** Percent done, 0 to 100. */
  percent: number;
  /** The figure said in words ("42 %"), shown and read out. */
  valueText: string;
}

/**
 * Work under way: a bar that fills as it goes, with the figure written out (role progressbar,
 * so a screen reader says the label and the percentage). The meter's look, without a limit.
 */
export function ProgressBar({ label, percent, valueText }: ProgressBarProps) {
  const labelId = useId();
  const value = Math.min(100, Math.max(0, Math.round(percent)));
  return (
    <div className={styles.meter}>
      <div className={styles.labels}>
        <span className={styles.label} id={labelId}>
          {label}
        </span>
        <span className={styles.figures}>{valueText}</span>
      </div>
      <div
        className={styles.track}
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
        aria-valuetext={valueText}
      >
        <div className={styles.fill} data-level="normal" style={{ width: `${String(value)}%` }} />
      </div>
    </div>
  );
}
