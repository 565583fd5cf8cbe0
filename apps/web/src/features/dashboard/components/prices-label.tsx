import type { PriceSource } from '@tradebot/contract';
import { formatMonths } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import styles from './dashboard.module.css';

/**
 * Which market the account's prices come from (decision 140), in plain words: the simulator's
 * generated prices, recorded real quotes replayed (source and months), or the broker's own.
 */
export function PricesLabel({ prices }: { prices: PriceSource }) {
  const { t, language } = useTranslation('dashboard');
  const text =
    prices.kind === 'recorded'
      ? t('account.prices.recorded', {
          source: prices.source,
          period: formatMonths(language, prices.from, prices.to),
        })
      : t(`account.prices.${prices.kind}`);
  return (
    <p className={styles.muted} data-testid="account-prices">
      {text}
    </p>
  );
}
