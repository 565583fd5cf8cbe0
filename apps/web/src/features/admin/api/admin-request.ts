import { apiV1Prefix, apiBasePath } from '@tradebot/contract/constants';
import { QueryClient } from '@tanstack/react-query';
import { ApiRequestError, apiRequest, type RequestOptions } from '../../../lib/api-client';
import { fetchFile, saveFile } from '../../../lib/download-file';
import { adminSession } from '../admin-session';

/** `/api/v1`: apiRequest adds the base path. */
export const v1 = apiV1Prefix.slice(apiBasePath.length);

/**
 * A console call with the admin's token. A 401 means the session ended (expired, signed out
 * elsewhere): the token goes, and the console shows its sign-in again.
 */
export async function adminRequest<T>(
  path: string,
  options: Omit<RequestOptions, 'token'> = {},
): Promise<T> {
  try {
    return await apiRequest<T>(`${v1}${path}`, { ...options, token: adminSession.token() });
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 401) adminSession.clear();
    throw error;
  }
}

/** A console file (CSV) with the admin's token, saved as a download. */
export async function adminDownload(path: string, fallbackName: string): Promise<void> {
  saveFile(await fetchFile(`${v1}${path}`, fallbackName, fetch, adminSession.token()));
}

/** The console's server state, apart from the user screens' (cleared on sign-out). */
export const adminQueryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      retry: (failures, error) =>
        failures < 2 && !(error instanceof ApiRequestError && error.status < 500),
    },
    mutations: { retry: false },
  },
});
