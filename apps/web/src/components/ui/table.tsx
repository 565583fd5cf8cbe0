import type { ReactNode } from 'react';
import styles from './table.module.css';
import hidden from './visually-hidden.module.css';

/**
 * A data table: a caption that names it (shown, or for screen readers only), a header row of column names,
 * and sideways scrolling inside its own box when the columns outgrow a narrow screen, so the
 * page itself never scrolls sideways. The scroll box is focusable, for keyboard users.
 */
export function Table({
  caption,
  captionHidden = false,
  columns,
  children,
}: {
  caption: string;
  captionHidden?: boolean;
  /** The column headings, in order. */
  columns: readonly string[];
  children: ReactNode;
}) {
  return (
    <div className={styles.scroll} tabIndex={0} role="region" aria-label={caption}>
      <table className={styles.table}>
        <caption className={captionHidden ? hidden.hidden : styles.caption}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
