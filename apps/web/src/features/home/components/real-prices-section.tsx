import { QueryClientProvider } from '@tanstack/react-query';
import { Button } from '../../../components/ui/button';
import { Skeleton } from '../../../components/ui/skeleton';
import { useTranslation } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';
import { useTrackRecordFigures } from '../../../lib/track-record-figures';
import { MarketsComparison } from '../../../components/markets-comparison/markets-comparison';
import styles from '../routes/home.module.css';

/**
 * What was measured (issue 36; decision 142): the robot on our simulated market and on real
 * recorded quotes, the figures read from the public track record.
 */
export function RealPricesSection() {
  return (
    <QueryClientProvider client={queryClient}>
      <RealPrices />
    </QueryClientProvider>
  );
}

function RealPrices() {
  const { t } = useTranslation('home');
  const query = useTrackRecordFigures();
  return (
    <section aria-labelledby="measured-title" data-home-markets>
      <h2 id="measured-title">{t('measured.title')}</h2>
      <p className={styles.sectionLead}>{t('measured.lead')}</p>
      {query.data ? (
        <MarketsComparison record={query.data} headingLevel={3} />
      ) : query.isError ? (
        <p className={styles.sectionLead}>{t('measured.error')}</p>
      ) : (
        <Skeleton height="12rem" />
      )}
      <p className={styles.more}>
        <Button to="/track-record" color="secondary" label={t('measured.more')} />
      </p>
    </section>
  );
}
