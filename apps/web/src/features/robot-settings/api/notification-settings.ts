import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationSettings, UpdateNotificationSettingsRequest } from '@tradebot/contract';
import { notificationPaths } from '@tradebot/contract/constants';
import { apiRequest } from '../../../lib/api-client';

export const notificationSettingsKey = ['notifications', 'settings'] as const;

/** GET /api/v1/notifications/settings: which events are e-mailed (decision 088). */
export async function getNotificationSettings(): Promise<NotificationSettings> {
  const body = await apiRequest<{ data: NotificationSettings }>(
    `/api/v1${notificationPaths.settings}`,
  );
  return body.data;
}

export function useNotificationSettings() {
  return useQuery({ queryKey: notificationSettingsKey, queryFn: getNotificationSettings });
}

/** PUT /api/v1/notifications/settings: every flag, and the browser's time zone. */
export async function updateNotificationSettings(
  input: UpdateNotificationSettingsRequest,
): Promise<NotificationSettings> {
  const body = await apiRequest<{ data: NotificationSettings }>(
    `/api/v1${notificationPaths.settings}`,
    { method: 'PUT', body: input },
  );
  return body.data;
}

export function useUpdateNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateNotificationSettings,
    onSuccess: (saved) => {
      queryClient.setQueryData(notificationSettingsKey, saved);
    },
  });
}
