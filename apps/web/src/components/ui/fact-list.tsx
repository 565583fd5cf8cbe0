import type { ReactNode } from 'react';
import styles from './fact-list.module.css';

export interface Fact {
  term: ReactNode;
  value: ReactNode;
  /** The figure the reader came for (a balance), set large. */
  emphasis?: boolean;
}

/** Labelled facts (a description list): one column on a phone, two from 600 px. */
export function FactList({ facts }: { facts: readonly Fact[] }) {
  return (
    <dl className={styles.list}>
      {facts.map((fact, index) => (
        <div key={index}>
          <dt className={styles.term}>{fact.term}</dt>
          <dd className={styles.value} data-emphasis={fact.emphasis ? 'true' : undefined}>
            {fact.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
