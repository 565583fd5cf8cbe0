import type { Category, RobotSettingsView, UserConfig } from '@tradebot/contract';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { routePath } from '../../../lib/route-paths';
import { Page } from '../../../components/ui/page';
import { Skeleton } from '../../../components/ui/skeleton';
import { SwitchField } from '../../../components/ui/switch';
import { Toaster, type ToastMessage } from '../../../components/ui/toast';
import { useTranslation } from '../../../lib/i18n';
import { useAppStore } from '../../../stores/app';
import { useAuthStore } from '../../../stores/auth';
import { useKillRobot } from '../../../lib/kill-robot';
import { useToggleNewsletter } from '../api/toggle-newsletter';
import { useUpdateSettings } from '../../../lib/update-settings';
import { BillingSection } from '../components/billing-section';
import { CategoriesField } from '../components/categories-field';
import { KillSwitch } from '../components/kill-switch';
import { NotificationsCard } from '../components/notifications-card';
import { RiskLevelField } from '../components/risk-level-field';
import {
  applyChange,
  createSerialSaver,
  saveWithRollback,
  type SerialSaver,
  type SettingsChange,
} from '../../../lib/settings-save';
import styles from '../components/profile-config.module.css';

let toastCount = 0;

/** spec §2 Profile configuration and §4 Robot settings: each change saves at once. */
export default function ProfileConfigRoute() {
  const { t } = useTranslation('robot-settings');
  const config = useAuthStore((state) => state.userConfig);
  return config ? <ProfileConfig config={config} /> : <ProfileConfigSkeleton title={t('title')} />;
}

function ProfileConfigSkeleton({ title }: { title: string }) {
  return (
    <Page title={title} width="narrow">
      <Skeleton height="8rem" />
      <Skeleton height="16rem" />
    </Page>
  );
}

function ProfileConfig({ config }: { config: UserConfig }) {
  const { t } = useTranslation('robot-settings');
  const { t: tCommon } = useTranslation();
  // What the controls show: the saved settings, or a change while it saves.
  const [settings, setSettings] = useState<RobotSettingsView>(config.settings);
  const [newsletter, setNewsletter] = useState(config.user.subscribed_newsletter);
  const [toast, setToast] = useState<ToastMessage | null>(null);
  const updateSettings = useUpdateSettings();
  const toggleNewsletter = useToggleNewsletter();
  const killRobot = useKillRobot();
  // The newsletter and the kill switch: one at a time, so two never race. The controls stay
  // enabled (a disabled control drops keyboard focus); such a change made meanwhile is refused.
  const busy = useRef(false);

  const say = (tone: ToastMessage['tone'], title: string, description?: string) => {
    toastCount += 1;
    setToast({ id: toastCount, tone, title, ...(description ? { description } : {}) });
  };

  /** Keeps the session's copy in step, so the guards and the next visit see what is saved. */
  const remember = (update: (current: UserConfig) => UserConfig) => {
    const current = useAuthStore.getState().userConfig;
    if (current) useAuthStore.getState().setUserConfig(update(current));
  };

  // The robot's settings: every change shows at once and is saved, one save at a time, the
  // latest state winning (issue 39: a second arrow key on the risk during a save was dropped).
  const latest = useRef({ save: updateSettings.mutateAsync, remember, say, t });
  useEffect(() => {
    latest.current = { save: updateSettings.mutateAsync, remember, say, t };
  });
  const saverRef = useRef<SerialSaver<RobotSettingsView> | null>(null);
  /** Made at the first change, from what the screen shows then. */
  const saverFrom = (shown: RobotSettingsView) =>
    (saverRef.current ??= createSerialSaver<RobotSettingsView>({
      saved: shown,
      save: (next) => latest.current.save(next),
      show: setSettings,
      onOutcome: (outcome) => {
        const { remember: keep, say: tell, t: text } = latest.current;
        if (outcome.ok) {
          keep((current) => ({ ...current, settings: outcome.value }));
          tell('success', text('saved'));
        } else {
          tell('error', text('saveFailed'), text('saveFailedHint'));
        }
      },
    }));
  const change = (settingsChange: SettingsChange) => {
    if (busy.current) return;
    saverFrom(settings).change((current) => applyChange(current, settingsChange));
  };

  const changeNewsletter = async (next: boolean) => {
    if (busy.current) return;
    busy.current = true;
    const outcome = await saveWithRollback(
      newsletter,
      next,
      () => toggleNewsletter.mutateAsync(),
      setNewsletter,
    );
    busy.current = false;
    if (outcome.ok) {
      remember((current) => ({
        ...current,
        user: { ...current.user, subscribed_newsletter: outcome.value },
      }));
      useAppStore.getState().setSubscribedToNewsletter(outcome.value);
      say('success', t('saved'));
    } else {
      say('error', t('saveFailed'), t('saveFailedHint'));
    }
  };

  const stopEverything = () => {
    if (busy.current || saverRef.current?.saving()) return;
    busy.current = true;
    killRobot.mutate(undefined, {
      onSettled: () => {
        busy.current = false;
      },
      onSuccess: (result) => {
        if (saverRef.current) saverRef.current.reset(result.settings);
        else setSettings(result.settings);
        remember((current) => ({ ...current, settings: result.settings }));
        say('success', t('kill.done', { count: result.closed }));
      },
      onError: () => {
        say('error', t('kill.failed'));
      },
    });
  };

  return (
    <Toaster
      message={toast}
      onDismiss={() => {
        setToast(null);
      }}
      closeLabel={tCommon('overlay.close')}
    >
      <Page title={t('title')} intro={t('intro')} width="narrow">
        <Card title={t('robot.title')} titleId="robot-title">
          <SwitchField
            label={t('robot.switch')}
            description={settings.bot_on ? t('robot.on') : t('robot.off')}
            checked={settings.bot_on}
            onCheckedChange={(value) => {
              change({ kind: 'bot_on', value });
            }}
            busy={updateSettings.isPending}
          />
        </Card>
        <Card title={t('risk.title')} titleId="risk-title">
          <p className={styles.text}>{t('risk.intro')}</p>
          <RiskLevelField
            value={settings.risk}
            onChange={(value) => {
              change({ kind: 'risk', value });
            }}
            busy={updateSettings.isPending}
          />
        </Card>
        <Card title={t('categories.title')} titleId="categories-title">
          <p className={styles.text}>{t('categories.intro')}</p>
          <CategoriesField
            enabled={settings.categories_enabled}
            onChange={(category: Category | 'all', value) => {
              change({ kind: 'category', category, value });
            }}
            busy={updateSettings.isPending}
          />
        </Card>
        <Card title={t('newsletter.title')} titleId="newsletter-title">
          <SwitchField
            label={t('newsletter.switch')}
            description={t('newsletter.hint')}
            checked={newsletter}
            onCheckedChange={(value) => void changeNewsletter(value)}
            busy={toggleNewsletter.isPending}
          />
        </Card>
        <NotificationsCard say={say} />
        <BillingSection say={say} />
        <Card title={t('account.title')} titleId="account-title">
          <p className={styles.text}>{t('account.text')}</p>
          <Button to={routePath('AccountSettings')} color="secondary" label={t('account.link')} />
        </Card>
        <KillSwitch onConfirm={stopEverything} pending={killRobot.isPending} />
      </Page>
    </Toaster>
  );
}
