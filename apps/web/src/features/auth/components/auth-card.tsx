import type { ReactNode } from 'react';
import styles from './auth-card.module.css';

/**
 * The frame of the sign-in screens: a centred card with the page's heading and lead, then the
 * form and the links under it. `wide` holds a form in two columns (register).
 */
export function AuthCard({
  titleId,
  title,
  lead,
  wide = false,
  children,
}: {
  titleId: string;
  title: string;
  lead: string;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <section className={styles.card} data-wide={wide} aria-labelledby={titleId}>
      <h1 id={titleId} className={styles.title}>
        {title}
      </h1>
      <p className={styles.lead}>{lead}</p>
      {children}
    </section>
  );
}

/** A small print line under the form (the register form's risk note). */
export function FinePrint({ children }: { children: ReactNode }) {
  return <p className={styles.finePrint}>{children}</p>;
}
