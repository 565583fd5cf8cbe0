import type { ReactNode } from 'react';
import styles from './status-page.module.css';

/** A page that only says where the visitor is (not found, an error) and offers a way on. */
export function StatusPage({
  titleId,
  title,
  text,
  action,
}: {
  titleId: string;
  title: string;
  text?: string;
  action: ReactNode;
}) {
  return (
    <section className={styles.page} aria-labelledby={titleId}>
      <h1 id={titleId} className={styles.title}>
        {title}
      </h1>
      {text && <p className={styles.text}>{text}</p>}
      {action}
    </section>
  );
}
