import type { NumberLocale } from '@tradebot/contract';
import { formatMoney, formatSignedMoney } from '../../lib/format';
import { useTranslation } from '../../lib/i18n';
import styles from './money.module.css';

/**
 * An operation's amount in its own currency (decision 103). Where the currency is not known (an
 * operation of a former link stored before it was kept), the bare number and a short hint: never
 * another currency's symbol.
 */
export function Money({
  locale,
  amount,
  currency,
  signed = false,
}: {
  locale: NumberLocale;
  amount: number;
  currency: string | null;
  /** A gain or a loss: with its sign. */
  signed?: boolean;
}) {
  const { t } = useTranslation('common');
  const text = (signed ? formatSignedMoney : formatMoney)(locale, amount, currency);
  if (currency !== null) return <>{text}</>;
  return (
    <>
      {text} <span className={styles.unknown}>{t('money.unknownCurrency')}</span>
    </>
  );
}
