import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { useTranslation } from '../../../lib/i18n';
import styles from './profile-config.module.css';

/** "Stop the robot and close every open operation now", asked for twice. */
export function KillSwitch({ onConfirm, pending }: { onConfirm: () => void; pending: boolean }) {
  const { t } = useTranslation('robot-settings');
  return (
    <Card title={t('kill.title')} titleId="kill-title" tone="danger">
      <p className={styles.text}>{t('kill.text')}</p>
      <ConfirmDialog
        tone="danger"
        trigger={
          <Button color="danger" loading={pending}>
            {t('kill.button')}
          </Button>
        }
        title={t('kill.confirmTitle')}
        description={t('kill.confirmText')}
        confirmLabel={t('kill.confirm')}
        cancelLabel={t('kill.cancel')}
        onConfirm={onConfirm}
      />
    </Card>
  );
}
