import type { ReactNode } from 'react';
import styles from './page.module.css';

/**
 * A logged-in screen: its heading (the page's one h1, with an optional line under it) and its
 * sections, centred at a width that suits the content: `wide` for tables, `narrow` for forms.
 */
export function Page({
  title,
  intro,
  width,
  children,
}: {
  title: string;
  intro?: string;
  width: 'wide' | 'narrow';
  children: ReactNode;
}) {
  return (
    <div className={`${styles.page} ${styles[width]}`}>
      <header className={styles.heading}>
        <h1>{title}</h1>
        {intro === undefined ? null : <p>{intro}</p>}
      </header>
      {children}
    </div>
  );
}
