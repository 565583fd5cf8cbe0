import type { ReactNode } from 'react';
import styles from './notice.module.css';

export interface NoticeProps {
  tone?: 'info' | 'success' | 'error' | 'warning';
  title?: ReactNode;
  children?: ReactNode;
  /** A control that resolves the notice (retry). */
  action?: ReactNode;
}

/**
 * A message in the page. Errors are announced at once (role="alert"); the others politely
 * (role="status").
 */
export function Notice({ tone = 'info', title, children, action }: NoticeProps) {
  return (
    <div className={styles.notice} data-tone={tone} role={tone === 'error' ? 'alert' : 'status'}>
      <div className={styles.body}>
        {title && <p className={styles.title}>{title}</p>}
        {children && <div className={styles.text}>{children}</div>}
      </div>
      {action && <div className={styles.action}>{action}</div>}
    </div>
  );
}
