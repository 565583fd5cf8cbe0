import type { AccountSession } from '@tradebot/contract';
import { useState } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Notice } from '../../../components/ui/notice';
import { Skeleton } from '../../../components/ui/skeleton';
import { formatDateTime } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { useSessions, useSignOut } from '../api/sessions';
import styles from '../account-settings.module.css';
import { serverMessage } from './failure-text';

type T = ReturnType<typeof useTranslation>['t'];

function deviceName(t: T, device: AccountSession['device']): string {
  if (device.browser && device.os) return t('sessions.device', device);
  return device.browser ?? device.os ?? t('sessions.unknownDevice');
}

/** Live sessions with when and where, "this session" marked; sign out one, or all others. */
export function SessionsCard() {
  const { t, language } = useTranslation('account-settings');
  const sessions = useSessions();
  const signOut = useSignOut();
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const others = sessions.data?.filter((session) => !session.current) ?? [];

  const end = (sessionId: string | null) => {
    setOutcome(null);
    signOut.mutate(sessionId, {
      onSuccess: (count) => {
        setOutcome({ tone: 'success', text: t('sessions.signedOut', { count }) });
      },
      onError: (error) => {
        setOutcome({ tone: 'error', text: serverMessage(error) ?? t('sessions.failed') });
      },
    });
  };

  return (
    <Card title={t('sessions.title')} titleId="account-sessions-title">
      <p className={styles.text}>{t('sessions.intro')}</p>
      {sessions.isPending && (
        <div className={styles.stack} aria-busy="true">
          <Skeleton height="4rem" />
          <Skeleton height="4rem" />
        </div>
      )}
      {sessions.isError && (
        <Notice
          tone="error"
          action={
            <Button color="secondary" size="sm" onClick={() => void sessions.refetch()}>
              {t('retry')}
            </Button>
          }
        >
          {serverMessage(sessions.error) ?? t('sessions.loadFailed')}
        </Notice>
      )}
      {sessions.data && (
        <ul className={styles.sessions} aria-label={t('sessions.title')}>
          {sessions.data.map((session) => (
            <li key={session.id} className={styles.session} data-current={session.current}>
              <div className={styles.sessionText}>
                <p className={styles.device}>
                  {deviceName(t, session.device)}{' '}
                  {session.current && <Badge tone="positive">{t('sessions.current')}</Badge>}
                </p>
                <p className={styles.times}>
                  {t('sessions.started', { when: formatDateTime(language, session.startedAt) })}
                  <br />
                  {t('sessions.lastUsed', { when: formatDateTime(language, session.lastUsedAt) })}
                </p>
              </div>
              {!session.current && (
                <Button
                  color="other"
                  size="sm"
                  aria-label={t('sessions.signOutOne', { device: deviceName(t, session.device) })}
                  disabled={signOut.isPending}
                  onClick={() => {
                    end(session.id);
                  }}
                >
                  {t('sessions.signOut')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {sessions.data && others.length === 0 && (
        <p className={styles.text}>{t('sessions.onlyThis')}</p>
      )}
      {outcome && <Notice tone={outcome.tone}>{outcome.text}</Notice>}
      {others.length > 0 && (
        <ConfirmDialog
          trigger={
            <Button color="secondary" loading={signOut.isPending && signOut.variables === null}>
              {t('sessions.signOutOthers')}
            </Button>
          }
          title={t('sessions.confirmTitle')}
          description={t('sessions.confirmText', { count: others.length })}
          confirmLabel={t('sessions.confirm')}
          cancelLabel={t('cancel')}
          onConfirm={() => {
            end(null);
          }}
        />
      )}
    </Card>
  );
}
