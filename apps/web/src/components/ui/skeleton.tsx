import styles from './skeleton.module.css';

/** A grey placeholder the size of what is loading; hidden from assistive technology. */
export function Skeleton({ width = '100%', height = '1rem' }: { width?: string; height?: string }) {
  return <span className={styles.skeleton} style={{ width, height }} aria-hidden="true" />;
}
