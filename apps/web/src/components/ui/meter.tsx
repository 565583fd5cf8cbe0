import { useId, type ReactNode } from 'react';
import styles from './meter.module.css';

export interface MeterProps {
  label: ReactNode;
  /** The measured share, 0..1 (values outside are clamped for drawing only). */
  value: number;
  /** The limit, 0..1: the bar is full when the value reaches it. */
  limit: number;
  /** The figures said in words (value and limit), shown and read out. */
  valueText: string;
  limitText: string;
}

/**
 * A share against a limit: the bar fills with the value, a mark shows the limit, and the
 * figures are written out, so neither colour nor length alone carries the meaning.
 */
export function Meter({ label, value, limit, valueText, limitText }: MeterProps) {
  const labelId = useId();
  const clamp = (share: number) => Math.min(1, Math.max(0, share));
  const level = value >= limit ? 'full' : value >= limit * 0.8 ? 'high' : 'normal';
  return (
    <div className={styles.meter}>
      <div className={styles.labels}>
        <span className={styles.label} id={labelId}>
          {label}
        </span>
        <span className={styles.figures}>
          {valueText} <span className={styles.limit}>/ {limitText}</span>
        </span>
      </div>
      <div
        className={styles.track}
        role="meter"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={limit}
        aria-valuenow={Math.min(value, limit)}
        aria-valuetext={`${valueText} / ${limitText}`}
      >
        <div
          className={styles.fill}
          data-level={level}
          style={{ width: `${String(clamp(value / limit) * 100)}%` }}
        />
      </div>
    </div>
  );
}
