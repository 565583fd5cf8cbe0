import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installMemoryStorage } from '../test/memory-storage';
import { ApiRequestError } from './api-client';
import { fetchFile, fileNameFromDisposition } from './download-file';

describe('file name from Content-Disposition (RFC 6266)', () => {
  it('prefers the encoded name, then the plain one, then the fallback', () => {
    expect(
      fileNameFromDisposition(
        `attachment; filename="history.csv"; filename*=UTF-8''historial%20d%C3%ADa.csv`,
        'x.csv',
      ),
    ).toBe('historial día.csv');
    expect(fileNameFromDisposition('attachment; filename="history-week.csv"', 'x.csv')).toBe(
      'history-week.csv',
    );
    expect(fileNameFromDisposition('attachment; filename=plain.csv', 'x.csv')).toBe('plain.csv');
    expect(fileNameFromDisposition('attachment', 'x.csv')).toBe('x.csv');
    expect(fileNameFromDisposition(null, 'x.csv')).toBe('x.csv');
    expect(fileNameFromDisposition(`attachment; filename*=UTF-8''%E0%A4%A`, 'x.csv')).toBe('x.csv');
  });
});

describe('fetching a file from the API', () => {
  let restore: () => void;
  beforeEach(() => {
    restore = installMemoryStorage();
  });
  afterEach(() => {
    restore();
  });

  it('sends the bearer token and the language, and names the file as the server says', async () => {
    localStorage.setItem('token', 'abc');
    localStorage.setItem('language', 'pt');
    const fetcher = vi.fn<typeof fetch>(() =>
      Promise.resolve(
        new Response('OpenTime,Profit\n', {
          headers: {
            'Content-Type': 'text/csv',
            'Content-Disposition': 'attachment; filename="tradebot-week.csv"',
          },
        }),
      ),
    );
    const file = await fetchFile('/api/v1/history-csv?period=week', 'fallback.csv', fetcher);
    const [url, init] = fetcher.mock.calls[0] ?? [];
    expect(url).toBe('/core-api/public/api/v1/history-csv?period=week');
    expect(init?.headers).toEqual({ Authorization: 'Bearer abc', 'Accept-Language': 'pt' });
    expect(file.fileName).toBe('tradebot-week.csv');
    expect(await file.blob.text()).toBe('OpenTime,Profit\n');
  });

  it('fails with the server message and code, or the status text', async () => {
    const refusing = () =>
      Promise.resolve(
        new Response(JSON.stringify({ message: 'Sesión vencida', code: 'UNAUTHORIZED' }), {
          status: 401,
        }),
      );
    const error = await fetchFile('/x', 'x.csv', refusing).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ status: 401, code: 'UNAUTHORIZED', message: 'Sesión vencida' });

    const broken = () =>
      Promise.resolve(new Response('<html>', { status: 502, statusText: 'Bad Gateway' }));
    await expect(fetchFile('/x', 'x.csv', broken)).rejects.toMatchObject({
      status: 502,
      code: 'HTTP_ERROR',
      message: 'Bad Gateway',
    });
  });
});
