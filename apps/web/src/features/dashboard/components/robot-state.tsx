import type { RobotStatus } from '@tradebot/contract';
import { AppLink } from '../../../components/ui/app-link';
import { Badge } from '../../../components/ui/badge';
import { Skeleton } from '../../../components/ui/skeleton';
import { useTranslation } from '../../../lib/i18n';
import styles from './dashboard.module.css';
import { RobotActivityList } from './robot-activity';

/**
 * The robot's state in words: on or off, why it is idle when it is, and what it does in each
 * category the user chose (decision 147). `stale`: the last refresh of that failed.
 */
export function RobotState({
  robot,
  stale = false,
}: {
  robot: RobotStatus | null;
  stale?: boolean;
}) {
  const { t } = useTranslation('dashboard');
  if (!robot) {
    return (
      <div className={styles.robot}>
        <Skeleton height="1.5rem" width="60%" />
      </div>
    );
  }
  const on = robot.bot_on && robot.idleReason !== 'TRADING_HALTED';
  const sentence = robot.idleReason ? t(`robot.idle.${robot.idleReason}`) : t('robot.trading');
  return (
    <section className={styles.robot} aria-labelledby="robot-state-title" data-testid="robot-state">
      <h2 id="robot-state-title" className={styles.robotTitle}>
        {t('robot.title')}
        <Badge tone={on ? (robot.idleReason ? 'warning' : 'positive') : 'neutral'}>
          {on ? t('robot.on') : t('robot.off')}
        </Badge>
      </h2>
      <p className={styles.robotText}>{sentence}</p>
      {robot.bot_on && robot.activity ? (
        <RobotActivityList key={robot.activity.asOf} activity={robot.activity} stale={stale} />
      ) : null}
      {robot.idleReason === 'BROKER_RECONNECT_NEEDED' ? (
        <AppLink className={styles.robotLink} to="/account-settings">
          {t('robot.reconnectLink')}
        </AppLink>
      ) : null}
      <AppLink className={styles.robotLink} to="/profile-config">
        {t('robot.settingsLink')}
      </AppLink>
    </section>
  );
}
