import type { BestForecast, CategoryActivity, RobotActivity } from '@tradebot/contract';
import { useEffect, useState } from 'react';
import { formatAgo, formatCount, formatPercent, formatWeekdayTime } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { useNumberLocale } from '../../../lib/number-locale';
import styles from './dashboard.module.css';

/** How often the ages on the lines move (decision 147). */
const tickMs = 1_000;

/**
 * The time since the list was given its activity (it is keyed on `asOf`, so a new one starts
 * again), moving every `tickMs`: a line's age is the robot's own (`asOf - evaluatedAt`) plus
 * this, so clocks apart do not matter.
 */
function useSinceArrival(): number {
  const [receivedAt] = useState(() => Date.now());
  const [now, setNow] = useState(receivedAt);
  useEffect(() => {
    const timer = setInterval(() => {
      setNow(Date.now());
    }, tickMs);
    return () => {
      clearInterval(timer);
    };
  }, []);
  return Math.max(0, now - receivedAt);
}

/**
 * Per category the user chose, one short line: what the robot does there now and when it last
 * looked (issue 39, decision 147). `stale`: the last refresh failed, the lines are the ones
 * before.
 */
export function RobotActivityList({
  activity,
  stale = false,
  timeZone,
}: {
  activity: RobotActivity;
  stale?: boolean;
  /** The reader's time zone unless given (tests). */
  timeZone?: string;
}) {
  const { t, language } = useTranslation('dashboard');
  const numberLocale = useNumberLocale(language);
  const sinceArrival = useSinceArrival();
  const asOf = Date.parse(activity.asOf);
  if (activity.categories.length === 0) return null;

  const forecast = (best: BestForecast) =>
    t('activity.forecast', {
      probability: formatPercent(numberLocale, best.probability),
      required: formatPercent(numberLocale, best.requiredProbability),
    });
  const sentence = (entry: CategoryActivity): string => {
    const category = t(`activity.categories.${entry.category}`);
    switch (entry.state) {
      case 'MARKET_CLOSED':
        return entry.opensAt === null
          ? t('activity.closed', { category })
          : t('activity.closedUntil', {
              category,
              opensAt: formatWeekdayTime(language, entry.opensAt, timeZone),
            });
      case 'LEARNING':
        return entry.outcomes >= entry.outcomesNeeded
          ? t('activity.learningLast', { category })
          : t('activity.learning', {
              category,
              outcomes: formatCount(numberLocale, entry.outcomes),
              needed: formatCount(numberLocale, entry.outcomesNeeded),
            });
      case 'NO_EDGE':
        return entry.best
          ? t('activity.noEdge', { category, forecast: forecast(entry.best) })
          : t('activity.noForecast', { category });
      case 'TRADING': {
        const open =
          entry.openOperations > 0
            ? t('activity.open', { category, count: entry.openOperations })
            : t('activity.edge', { category });
        return entry.best
          ? t('activity.withForecast', { open, forecast: forecast(entry.best) })
          : open;
      }
    }
  };
  const looked = (entry: CategoryActivity): string | null => {
    if (entry.state === 'MARKET_CLOSED') return null;
    if (entry.evaluatedAt === null) return t('activity.notLookedYet');
    return formatAgo(language, asOf - Date.parse(entry.evaluatedAt) + sinceArrival);
  };

  return (
    <div className={styles.activity}>
      <h3 id="robot-activity-title" className={styles.activityTitle}>
        {t('activity.title')}
      </h3>
      <ul
        className={styles.activityList}
        aria-labelledby="robot-activity-title"
        data-testid="robot-activity"
      >
        {activity.categories.map((entry) => {
          const when = looked(entry);
          return (
            <li key={entry.category}>
              {sentence(entry)}
              {when === null ? null : <span className={styles.activityWhen}> · {when}</span>}
            </li>
          );
        })}
      </ul>
      {stale ? <p className={styles.hint}>{t('activity.stale')}</p> : null}
    </div>
  );
}
