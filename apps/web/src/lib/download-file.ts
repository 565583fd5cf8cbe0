import { apiBasePath } from '@tradebot/contract/constants';
import { ApiRequestError } from './api-client';
import { storage } from './storage';

/**
 * The file name a Content-Disposition header gives (RFC 6266: filename* first, then
 * filename), or the fallback.
 */
export function fileNameFromDisposition(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // A malformed encoding falls through to the plain name.
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(header);
  return plain?.[1]?.trim() ?? fallback;
}

export interface DownloadedFile {
  blob: Blob;
  fileName: string;
}

/**
 * GETs a file from the API with the bearer token (a plain link cannot send it), failing with
 * the server's localized message like any other call.
 */
export async function fetchFile(
  path: string,
  fallbackName: string,
  fetcher: typeof fetch = fetch,
  /** Another bearer token than the stored user's (the support console's). */
  bearerToken: string | null = storage.get('token'),
): Promise<DownloadedFile> {
  const headers: Record<string, string> = {};
  const token = bearerToken;
  if (token) headers.Authorization = `Bearer ${token}`;
  const language = storage.get('language');
  if (language) headers['Accept-Language'] = language;
  const response = await fetcher(`${apiBasePath}${path}`, { headers });
  if (!response.ok) {
    let message = response.statusText || 'Error';
    let code = 'HTTP_ERROR';
    try {
      const body = (await response.json()) as { message?: unknown; code?: unknown };
      if (typeof body.message === 'string') message = body.message;
      if (typeof body.code === 'string') code = body.code;
    } catch {
      // Not JSON: keep the status text.
    }
    throw new ApiRequestError(response.status, code, message);
  }
  return {
    blob: await response.blob(),
    fileName: fileNameFromDisposition(response.headers.get('Content-Disposition'), fallbackName),
  };
}

/** Hands a Blob to the browser as a download, then frees it. */
export function saveFile({ blob, fileName }: DownloadedFile): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the URL after click() returns.
  setTimeout(() => {
    URL.revokeObjectURL(url);
  }, 1000);
}
