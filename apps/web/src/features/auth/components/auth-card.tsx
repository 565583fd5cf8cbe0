import { useLayoutEffect, useRef, type ReactNode } from 'react';
import styles from './auth-card.module.css';

/**
 * The frame of the sign-in screens: a centred card with the page's heading and lead, then the
 * form and the links under it. `wide` holds a form in two columns (register).
 *
 * `replacesView` marks a card that takes the place of another on the same route (register's
 * "check your inbox" after the form): no navigation happens, so the scroll manager does not
 * bring the page to the top. Left alone, a phone that scrolled down to the submit button is
 * left at the footer of the much shorter card (issue 39). The card starts the page at the top
 * and moves the focus to its heading, as a new page would.
 */
export function AuthCard({
  titleId,
  title,
  lead,
  wide = false,
  replacesView = false,
  children,
}: {
  titleId: string;
  title: string;
  lead: string;
  wide?: boolean;
  replacesView?: boolean;
  children: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useLayoutEffect(() => {
    if (!replacesView) return;
    window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
    heading.current?.focus({ preventScroll: true });
  }, [replacesView]);
  return (
    <section className={styles.card} data-wide={wide} aria-labelledby={titleId}>
      <h1
        ref={heading}
        id={titleId}
        className={styles.title}
        {...(replacesView ? { tabIndex: -1 } : {})}
      >
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
