import { useEffect, useState } from 'react';
import { useNavigation } from 'react-router';
import { useTranslation } from '../../lib/i18n';
import { Spinner } from './spinner';
import styles from './page-loader.module.css';

/** spec §2 and §9: size 55, shown at most 5 s; green, the brand colour (its CSS module). */
export const pageLoaderDefaults = { size: 55, durationMs: 5000 } as const;

/** The full-page loader itself (also the first load's fallback). */
export function PageLoader() {
  const { t } = useTranslation();
  return (
    <div className={styles.loader} role="status" aria-live="polite">
      <Spinner size={pageLoaderDefaults.size} label={t('loading')} />
    </div>
  );
}

/** Shows the loader from the start of each navigation until it ends, 5 s at most. */
export function NavigationLoader() {
  const navigating = useNavigation().state !== 'idle';
  const [expired, setExpired] = useState(false);
  useEffect(() => {
    if (!navigating) return;
    const timer = setTimeout(() => {
      setExpired(true);
    }, pageLoaderDefaults.durationMs);
    return () => {
      clearTimeout(timer);
      setExpired(false);
    };
  }, [navigating]);
  return navigating && !expired ? <PageLoader /> : null;
}
