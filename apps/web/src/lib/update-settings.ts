import { useMutation } from '@tanstack/react-query';
import type { RobotSettingsView } from '@tradebot/contract';
import { apiRequest } from './api-client';
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

export function useUpdateSettings() {
  return useMutation({ mutationFn: updateSettings });
}
