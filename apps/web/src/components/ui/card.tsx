import type { ReactNode } from 'react';
import styles from './card.module.css';

export interface CardProps {
  /** The section's heading; also names the region. */
  title?: ReactNode;
  titleId?: string;
  /** Controls beside the title (a filter, an export button). */
  actions?: ReactNode;
  tone?: 'default' | 'danger';
  children: ReactNode;
}

/** A surface that groups one subject of a screen. */
export function Card({ title, titleId, actions, tone = 'default', children }: CardProps) {
  return (
    <section
      className={styles.card}
      data-tone={tone}
      {...(titleId ? { 'aria-labelledby': titleId } : {})}
    >
      {(title ?? actions) && (
        <header className={styles.header}>
          {title && (
            <h2 className={styles.title} id={titleId}>
              {title}
            </h2>
          )}
          {actions && <div className={styles.actions}>{actions}</div>}
        </header>
      )}
      {children}
    </section>
  );
}
