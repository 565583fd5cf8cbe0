import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Notice } from '../../../components/ui/notice';
import { AppLink } from '../../../components/ui/app-link';
import { useTranslation } from '../../../lib/i18n';
import { routePath } from '../../../lib/route-paths';
import { useKillRobot } from '../../../lib/kill-robot';

type Outcome = { kind: 'done'; closed: number } | { kind: 'failed' } | null;

/**
 * "Stop everything": the robot goes off and every open operation closes, one tap plus a
 * confirmation (issue 23). Without access (issue 18, docs/decisions/063) the dashboard is
 * read-only and this is the one action left, under a banner saying why. With access it is
 * offered only when there is something to stop (the robot on, or an operation open), as the
 * console's kill switch is; its outcome stays shown after.
 */
export function StopEverything({
  accessEnded,
  open,
  robotOn,
}: {
  accessEnded: boolean;
  open: number;
  robotOn: boolean;
}) {
  const { t } = useTranslation('dashboard');
  const kill = useKillRobot();
  const [outcome, setOutcome] = useState<Outcome>(null);
  if (!accessEnded && !robotOn && open === 0 && outcome === null) return null;
  const stop = () => {
    setOutcome(null);
    kill.mutate(undefined, {
      onSuccess: (result) => {
        setOutcome({ kind: 'done', closed: result.closed });
      },
      onError: () => {
        setOutcome({ kind: 'failed' });
      },
    });
  };
  const button = (
    <ConfirmDialog
      tone="danger"
      trigger={
        <Button color="danger" loading={kill.isPending}>
          {t('stopAll.button')}
        </Button>
      }
      title={t('stopAll.confirmTitle')}
      description={t('stopAll.confirmText')}
      confirmLabel={t('stopAll.confirm')}
      cancelLabel={t('stopAll.cancel')}
      onConfirm={stop}
    />
  );
  return (
    <>
      {/* The button sits in the body, not the notice's action slot: its label wraps at 360 px. */}
      {accessEnded ? (
        <Notice tone="warning" title={t('accessEnded.title')}>
          <p>{t('accessEnded.text', { count: open })}</p>
          <p>
            <AppLink to={routePath('Payment')}>{t('accessEnded.pay')}</AppLink>
          </p>
          <p>{button}</p>
        </Notice>
      ) : (
        <Notice title={t('stopAll.title')}>
          <p>{t('stopAll.text')}</p>
          <p>{button}</p>
        </Notice>
      )}
      {outcome?.kind === 'done' && (
        <Notice tone="success" title={t('stopAll.done', { count: outcome.closed })} />
      )}
      {outcome?.kind === 'failed' && <Notice tone="error" title={t('stopAll.failed')} />}
    </>
  );
}
