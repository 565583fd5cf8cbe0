import {
  notificationEvents,
  updateNotificationSettingsRequestSchema,
  type NotificationEvent,
  type NotificationSettings,
  type UpdateNotificationSettingsRequest,
} from '@tradebot/contract';
import { useRef } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Notice } from '../../../components/ui/notice';
import { Skeleton } from '../../../components/ui/skeleton';
import { SwitchField } from '../../../components/ui/switch';
import type { ToastMessage } from '../../../components/ui/toast';
import { useTranslation } from '../../../lib/i18n';
import { contractResolver } from '../../../lib/contract-form';
import {
  useNotificationSettings,
  useUpdateNotificationSettings,
} from '../api/notification-settings';
import { useChangePush, usePushState } from '../api/push-subscription';
import styles from './profile-config.module.css';
import { browserTimeZone } from '../../../lib/time-zone';

type Say = (tone: ToastMessage['tone'], title: string, description?: string) => void;

/**
 * Which events reach the user by e-mail (issue 22; decision 088), beside the newsletter: each
 * switch saves at once, and goes back if the save fails.
 */
export function NotificationsCard({ say }: { say: Say }) {
  const { t } = useTranslation('robot-settings');
  const settings = useNotificationSettings();
  return (
    <Card title={t('notifications.title')} titleId="notifications-title">
      <p className={styles.text}>{t('notifications.intro')}</p>
      {settings.isPending ? (
        <Skeleton height="12rem" />
      ) : settings.isError ? (
        <Notice
          tone="error"
          action={
            <Button
              color="secondary"
              size="sm"
              label={t('notifications.retry')}
              onClick={() => void settings.refetch()}
              loading={settings.isFetching}
            />
          }
        >
          {t('notifications.loadFailed')}
        </Notice>
      ) : (
        <NotificationSwitches saved={settings.data} say={say} />
      )}
      <PushControl say={say} />
    </Card>
  );
}

/**
 * The same notices pushed to this browser: the permission prompt comes only after the click
 * (decision 088), and the text says the browser will ask; a browser where they are blocked is
 * told how to allow them (issue 39: not "blocked" before anything was asked).
 */
export function PushControl({ say }: { say: Say }) {
  const { t } = useTranslation('robot-settings');
  const state = usePushState();
  const change = useChangePush();
  if (state.isPending) return null;
  const current = state.data ?? 'unsupported';
  if (current === 'unsupported')
    return <p className={styles.text}>{t('notifications.push.unsupported')}</p>;
  if (current === 'blocked')
    return <Notice tone="warning">{t('notifications.push.blocked')}</Notice>;
  const on = current === 'on';
  return (
    <div>
      <p className={styles.text}>{t(`notifications.push.${current}`)}</p>
      <Button
        color="secondary"
        label={on ? t('notifications.push.disable') : t('notifications.push.enable')}
        loading={change.isPending}
        onClick={() => {
          change.mutate(!on, {
            onSuccess: (next) => {
              if (next === 'on' || next === 'off') say('success', t('saved'));
            },
            onError: () => {
              say('error', t('notifications.push.failed'));
            },
          });
        }}
      />
    </div>
  );
}

function valuesOf(settings: NotificationSettings): UpdateNotificationSettingsRequest {
  const { time_zone: _timeZone, ...flags } = settings;
  return flags;
}

function NotificationSwitches({ saved, say }: { saved: NotificationSettings; say: Say }) {
  const { t } = useTranslation('robot-settings');
  const update = useUpdateNotificationSettings();
  const { control, handleSubmit, setValue, getValues, reset } =
    useForm<UpdateNotificationSettingsRequest>({
      resolver: contractResolver(updateNotificationSettingsRequestSchema),
      defaultValues: valuesOf(saved),
    });
  // One save at a time; a change made meanwhile is refused (the switch stays focusable).
  const busy = useRef(false);

  const change = async (event: NotificationEvent, value: boolean) => {
    if (busy.current) return;
    busy.current = true;
    const before = getValues();
    setValue(event, value);
    await handleSubmit(
      async (values) => {
        try {
          const stored = await update.mutateAsync({
            ...values,
            ...(browserTimeZone() ? { time_zone: browserTimeZone() } : {}),
          });
          reset(valuesOf(stored));
          say('success', t('saved'));
        } catch {
          reset(before);
          say('error', t('saveFailed'), t('saveFailedHint'));
        }
      },
      () => {
        reset(before);
        say('error', t('saveFailed'), t('saveFailedHint'));
      },
    )();
    busy.current = false;
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
      }}
    >
      {notificationEvents.map((event) => (
        <Controller
          key={event}
          control={control}
          name={event}
          render={({ field }) => (
            <SwitchField
              name={event}
              label={t(`notifications.events.${event}.label`)}
              description={t(`notifications.events.${event}.hint`)}
              checked={field.value}
              onCheckedChange={(value) => void change(event, value)}
              busy={update.isPending}
            />
          )}
        />
      ))}
    </form>
  );
}
