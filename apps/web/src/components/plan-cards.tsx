import { planIds, plans, type PlanId } from '@tradebot/contract/constants';
import type { ReactNode } from 'react';
import { formatCents } from '../lib/format';
import { useTranslation } from '../lib/i18n';
import { Badge } from './ui/badge';
import styles from './plan-cards.module.css';
import { useNumberLocale } from '../lib/number-locale';

const included = ['robot', 'refund', 'guarantee', 'support', 'cancel'] as const;

/**
 * The subscription plans with their prices, from the contract (the one place their amounts
 * live), in US dollars. `action` renders each plan's call to action (the home page links to
 * registration, the payment page opens the checkout). `chosen`, the plan picked earlier (on the
 * home page, decision 086), is marked as such. Reads the `plans` catalogue.
 */
export function PlanCards({
  action,
  chosen = null,
}: {
  action: (plan: PlanId, name: string) => ReactNode;
  chosen?: PlanId | null;
}) {
  const { t, language } = useTranslation('plans');
  const numberLocale = useNumberLocale(language);
  return (
    <ul className={styles.grid}>
      {planIds.map((id) => {
        const plan = plans[id];
        const name = t(`names.${id}`);
        return (
          <li
            key={id}
            className={styles.plan}
            data-chosen={id === chosen ? 'true' : undefined}
            aria-labelledby={`plan-${id}`}
          >
            {id === chosen && (
              <p className={styles.chosen}>
                <Badge tone="info">{t('chosen')}</Badge>
              </p>
            )}
            <h3 className={styles.name} id={`plan-${id}`}>
              {name}
            </h3>
            <p className={styles.price}>
              <span className={styles.amount}>{formatCents(numberLocale, plan.priceCents)}</span>{' '}
              {t(`per.${id}`)}
            </p>
            {plan.interval === 'year' && (
              <p className={styles.note}>
                {t('yearlyEquivalent', {
                  amount: formatCents(numberLocale, Math.round(plan.priceCents / 12)),
                })}
              </p>
            )}
            <ul className={styles.features}>
              {plan.brokerGiftCents > 0 && (
                <li className={styles.gift}>
                  {t('gift', { amount: formatCents(numberLocale, plan.brokerGiftCents) })}
                </li>
              )}
              {included.map((key) => (
                <li key={key}>{t(`included.${key}`)}</li>
              ))}
            </ul>
            <div className={styles.action}>{action(id, name)}</div>
          </li>
        );
      })}
    </ul>
  );
}
