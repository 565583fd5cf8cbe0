import { Spinner } from '../../../components/ui/spinner';
import styles from './waiting.module.css';

/** Waiting for the provider's signed event: a spinner and what is awaited, announced politely. */
export function Waiting({ children }: { children: string }) {
  return (
    <div className={styles.waiting} role="status" aria-live="polite">
      <Spinner size={32} />
      <p>{children}</p>
    </div>
  );
}
