import type { ReactNode } from 'react';
import styles from './card.module.css';

export interface CardProps {
  /** The section's heading; also names the region. */
  title?: ReactNode;
  titleId?: string;
  /** 1 when the card is the whole page (a sign-in), so its title is the page's heading. */
  headingLevel?: 1 | 2;
  /** Controls beside the title (a filter, an export button). */
  actions?: ReactNode;
  tone?: 'default' | 'danger';
  children: ReactNode;
}

/** A surface that groups one subject of a screen. */
export function Card({
  title,
  titleId,
  headingLevel = 2,
  actions,
  tone = 'default',
  children,
}: CardProps) {
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <section
      className={styles.card}
      data-tone={tone}
      {...(titleId ? { 'aria-labelledby': titleId } : {})}
    >
      {(title ?? actions) && (
        <header className={styles.header}>
          {title && (
            <Heading className={styles.title} id={titleId}>
              {title}
            </Heading>
          )}
          {actions && <div className={styles.actions}>{actions}</div>}
        </header>
      )}
      {children}
    </section>
  );
}
