import type { ReactNode } from 'react';
import styles from './stat.module.css';

export interface StatProps {
  label: ReactNode;
  value: ReactNode;
  hint?: ReactNode;
  tone?: 'neutral' | 'positive' | 'negative';
}

/** One figure and what it is. The tone colours it; the value itself carries its sign. */
export function Stat({ label, value, hint, tone = 'neutral' }: StatProps) {
  return (
    <div className={styles.stat}>
      <dt className={styles.label}>{label}</dt>
      <dd className={styles.value} data-tone={tone}>
        {value}
      </dd>
      {hint && <dd className={styles.hint}>{hint}</dd>}
    </div>
  );
}

/** Lays out Stats: two columns on a phone, four from 900 px. */
export function StatGrid({ children, label }: { children: ReactNode; label?: string }) {
  return (
    <dl className={styles.grid} aria-label={label}>
      {children}
    </dl>
  );
}
