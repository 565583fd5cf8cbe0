import { apiRequest } from './api-client';

/** spec §7: GET /api/v1/get-settings (Bearer); data.data is the user config. */
export async function getSettings(): Promise<unknown> {
  const body = await apiRequest<{ data?: unknown } | undefined>('/api/v1/get-settings');
  return body?.data;
}
