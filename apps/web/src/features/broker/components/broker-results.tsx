import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import type { Broker, BrokerSearchRequest } from '@tradebot/contract';
import { builtInPlatform } from '@tradebot/contract/constants';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { FactList } from '../../../components/ui/fact-list';
import { Notice } from '../../../components/ui/notice';
import { Skeleton } from '../../../components/ui/skeleton';
import { formatMoney } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';
import { routePath } from '../../../lib/route-paths';
import { useAuthStore } from '../../../stores/auth';
import { brokerSearchQuery } from '../api/search-brokers';
import styles from './broker-search.module.css';
import { useNumberLocale } from '../../../lib/number-locale';

type Search =
  | { state: 'loading' }
  | { state: 'failed' }
  | { state: 'done'; brokers: Broker[]; matched: number };

/**
 * The step 5 results: searched again whenever an answer changes; loading, error (spec §8
 * "Sorry, there was an error in the search") and found ("broker found") states. Its own query
 * client: the page is public, outside the logged-in screens' layouts (as the track record).
 */
export function BrokerResults({ request }: { request: BrokerSearchRequest }) {
  return (
    <QueryClientProvider client={queryClient}>
      <Results request={request} />
    </QueryClientProvider>
  );
}

function Results({ request }: { request: BrokerSearchRequest }) {
  const { t } = useTranslation('broker');
  const { t: tForms } = useTranslation('forms');
  const query = useQuery(brokerSearchQuery(request));
  // A retry after an error is loading again, as the first search.
  const search: Search = query.isSuccess
    ? { state: 'done', ...query.data }
    : query.isError && !query.isFetching
      ? { state: 'failed' }
      : { state: 'loading' };

  return (
    <section aria-labelledby="results-title" aria-busy={search.state === 'loading'}>
      <h2 id="results-title">{t('results.title')}</h2>
      {/* One result, said once: found (spec §8 "broker found") or none of the directory. */}
      {search.state === 'done' &&
        (search.matched === 0 ? (
          <Notice tone="info" title={t('results.noneMatchedTitle')}>
            {t('results.noneMatched')}
          </Notice>
        ) : (
          <Notice tone="success" title={tForms('success.brokerFound')}>
            {t('results.matched', { count: search.matched })}
          </Notice>
        ))}
      {search.state === 'loading' && <Skeleton height="12rem" />}
      {search.state === 'failed' && (
        <Notice
          tone="error"
          title={tForms('errors.search')}
          action={
            <Button
              size="sm"
              color="secondary"
              label={t('results.retry')}
              onClick={() => {
                void query.refetch();
              }}
            />
          }
        />
      )}
      {search.state === 'done' && (
        <ul className={styles.results}>
          {search.brokers.map((broker) => (
            <li key={broker.id}>
              <BrokerCard broker={broker} />
            </li>
          ))}
        </ul>
      )}
      <p className={styles.note}>{t('results.disclaimer')}</p>
    </section>
  );
}

function BrokerCard({ broker }: { broker: Broker }) {
  const { t, language } = useTranslation('broker');
  const numberLocale = useNumberLocale(language);
  const signedIn = useAuthStore((state) => state.token !== null);
  const titleId = `broker-${broker.id}`;
  const list = (items: string[], empty: string) => (items.length > 0 ? items.join(', ') : empty);
  return (
    <Card title={broker.builtIn ? t('results.builtInName') : broker.name} titleId={titleId}>
      <div className={styles.badges}>
        {broker.builtIn && <Badge tone="info">{t('results.badges.simulated')}</Badge>}
        {broker.example && <Badge tone="warning">{t('results.badges.example')}</Badge>}
        {broker.robotSupported ? (
          <Badge tone="positive">{t('results.badges.robot')}</Badge>
        ) : (
          <Badge>{t('results.badges.noRobot')}</Badge>
        )}
      </div>
      {broker.builtIn && (
        <p>
          {t('results.builtInText', {
            balance: formatMoney(numberLocale, builtInPlatform.startingBalanceCents / 100),
          })}
        </p>
      )}
      <FactList
        facts={[
          {
            term: t('results.regulators'),
            value: broker.builtIn
              ? t('results.builtInRegulators')
              : list(broker.regulators, t('results.noRegulator')),
          },
          { term: t('results.minDeposit'), value: formatMoney(numberLocale, broker.minDeposit) },
          {
            term: t('results.markets'),
            value: broker.markets.map((market) => t(`markets.names.${market}`)).join(', '),
          },
          {
            term: t('results.platforms'),
            value: broker.platforms.map((platform) => t(`platform.names.${platform}`)).join(', '),
          },
          {
            term: t('results.countries'),
            value: broker.builtIn ? t('results.allCountries') : broker.countries.join(', '),
          },
        ]}
      />
      {broker.builtIn && (
        <Button
          to={signedIn ? routePath('LinkAccount') : routePath('Register')}
          label={signedIn ? t('results.link') : t('results.register')}
        />
      )}
      {!broker.builtIn && broker.website && (
        <a href={broker.website} target="_blank" rel="noopener noreferrer">
          {t('results.website')}
        </a>
      )}
    </Card>
  );
}
