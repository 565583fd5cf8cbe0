import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../lib/api-client';
import { liveDataFailure, liveDataRefetchInterval, liveDataRetryMs } from './live-data-error';

describe('what the dashboard says when get-all-data fails', () => {
  it("raises the server's message when the answer carries one", () => {
    const refused = new ApiRequestError(403, 'LINK_REQUIRED', 'Debes vincular tu cuenta', {});
    expect(liveDataFailure(refused)).toEqual({
      kind: 'server',
      text: 'Debes vincular tu cuenta',
      retrying: false,
    });
    expect(liveDataRefetchInterval(refused)).toBe(false);
    const down = new ApiRequestError(503, 'SERVICE_UNAVAILABLE', 'El robot no responde', {});
    expect(liveDataFailure(down)).toMatchObject({ kind: 'server', retrying: true });
    expect(liveDataRefetchInterval(down)).toBe(liveDataRetryMs);
  });

  it("never shows the browser's network error nor an HTTP status text, and keeps retrying", () => {
    for (const error of [
      new TypeError('Failed to fetch'),
      new ApiRequestError(502, 'HTTP_ERROR', 'Bad Gateway', {}),
      new ApiRequestError(500, 'HTTP_ERROR', 'Error', {}),
    ]) {
      expect(liveDataFailure(error)).toEqual({ kind: 'unreachable', retrying: true });
      expect(liveDataRefetchInterval(error)).toBe(liveDataRetryMs);
    }
    expect(liveDataRefetchInterval(null)).toBe(false);
  });
});
