import {
  mutationOptions,
  useMutation,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import type { RobotSettingsView } from '@tradebot/contract';
import { apiRequest } from './api-client';
import { liveTradingKey, robotAfterSave, type LiveTrading } from './live-trading';
import { settingsRequest } from './settings-save';

/**
 * spec §7 POST /api/v1/settings: bot_on, risk and categories_enabled as a JSON-encoded string.
 * Answers the settings now in force.
 */
export async function updateSettings(settings: RobotSettingsView): Promise<RobotSettingsView> {
  const body = await apiRequest<{ data: RobotSettingsView }>('/api/v1/settings', {
    method: 'POST',
    body: settingsRequest(settings),
  });
  return body.data;
}

/**
 * Saving the settings, and the robot's state following the answer at once (issue 39: the
 * dashboard said "Apagado" for seconds after "Encender el robot"); the server's own state is
 * asked again right after, for the reason a robot switched on may still be idle.
 */
export function settingsMutation(client: QueryClient) {
  return mutationOptions({
    mutationFn: updateSettings,
    onSuccess: (saved: RobotSettingsView) => {
      client.setQueryData<LiveTrading>(liveTradingKey, (live) =>
        live ? { ...live, robot: robotAfterSave(live.robot, saved) } : live,
      );
      void client.invalidateQueries({ queryKey: liveTradingKey });
    },
  });
}

export function useUpdateSettings() {
  return useMutation(settingsMutation(useQueryClient()));
}
