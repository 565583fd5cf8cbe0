import type { RobotStatus } from '@tradebot/contract';
import { useState } from 'react';
import { AppLink } from '../../../components/ui/app-link';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Notice } from '../../../components/ui/notice';
import { useTranslation } from '../../../lib/i18n';
import { useUpdateSettings } from '../../../lib/update-settings';
import { useAuthStore } from '../../../stores/auth';
import styles from './dashboard.module.css';

/**
 * Onboarding's last step (issue 23): a linked account whose robot was never on says so, explains
 * the risk level it will trade at, and switches the robot on in one tap. It shows only while the
 * robot is off and the account has never had an operation; a robot switched off later is the
 * robot state's business, not a step.
 */
export function SwitchOnStep({
  robot,
  neverTraded,
}: {
  robot: RobotStatus | null;
  neverTraded: boolean;
}) {
  const { t } = useTranslation('dashboard');
  const { t: tSettings } = useTranslation('robot-settings');
  const settings = useAuthStore((state) => state.userConfig?.settings);
  const authorized = useAuthStore((state) => state.userConfig?.authorized === true);
  const update = useUpdateSettings();
  const [switchedOn, setSwitchedOn] = useState(false);

  if (!settings || !authorized || settings.bot_on || switchedOn || !neverTraded) return null;
  if (robot?.idleReason !== 'ROBOT_OFF') return null;

  const switchOn = async () => {
    const saved = await update.mutateAsync({ ...settings, bot_on: true }).catch(() => null);
    if (!saved) return;
    const current = useAuthStore.getState().userConfig;
    if (current) useAuthStore.getState().setUserConfig({ ...current, settings: saved });
    setSwitchedOn(true);
  };

  return (
    <Card title={t('switchOn.title')} titleId="switch-on-title">
      <p className={styles.stepText}>{t('switchOn.text')}</p>
      <p className={styles.stepText}>
        <strong>{tSettings('risk.level', { level: settings.risk })}:</strong>{' '}
        {tSettings(`risk.levels.${String(settings.risk)}`)}
      </p>
      <p className={styles.stepText}>{t('switchOn.change')}</p>
      {update.isError && (
        <Notice tone="error" title={tSettings('saveFailed')}>
          {t('switchOn.failed')}
        </Notice>
      )}
      <div className={styles.stepActions}>
        <Button
          label={t('switchOn.button')}
          loading={update.isPending}
          onClick={() => void switchOn()}
        />
        <AppLink to="/profile-config">{t('switchOn.settingsLink')}</AppLink>
      </div>
    </Card>
  );
}
