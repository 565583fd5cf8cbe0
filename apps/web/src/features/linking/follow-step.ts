import type { UserConfig } from '@tradebot/contract';
import { useAuthStore } from '../../stores/auth';

/**
 * A step the server just recorded (linked, logged in to the platform): the settings are read
 * again so the guards follow it (spec §4). Should that read fail, the session's copy takes the
 * change the server confirmed, rather than sending the user back a step.
 */
export async function followStep(change: Partial<Pick<UserConfig, 'linked' | 'login_tradear'>>) {
  const auth = useAuthStore.getState();
  try {
    await auth.refreshSettings();
  } catch {
    const current = useAuthStore.getState().userConfig;
    if (current) auth.setUserConfig({ ...current, ...change });
  }
}
