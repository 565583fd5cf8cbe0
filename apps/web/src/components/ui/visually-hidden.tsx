import type { ReactNode } from 'react';
import styles from './visually-hidden.module.css';

/** Text a screen reader reads and the eye does not see (a label a visible icon or figure stands for). */
export function VisuallyHidden({ children }: { children: ReactNode }) {
  return <span className={styles.hidden}>{children}</span>;
}
