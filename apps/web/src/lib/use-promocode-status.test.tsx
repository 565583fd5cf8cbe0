import { onlineManager, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from './query-client';
import { promocodeQuery, promocodeRefused, usePromocodeStatus } from './use-promocode-status';

/** The promotional code's states (spec §4) come from the server's answer for that very code. */
function Probe({ code }: { code: string }) {
  return <output>{JSON.stringify(usePromocodeStatus(code))}</output>;
}

const statusOf = (code: string): unknown =>
  JSON.parse(
    renderToStaticMarkup(
      <QueryClientProvider client={queryClient}>
        <Probe code={code} />
      </QueryClientProvider>,
    )
      .replace(/^<output>|<\/output>$/g, '')
      .replaceAll('&quot;', '"'),
  );

afterEach(() => {
  queryClient.clear();
  queryClient.setQueryDefaults(['promocode'], {});
  vi.unstubAllGlobals();
});

describe('usePromocodeStatus', () => {
  it('posts the code to validate-promocode', async () => {
    const fetchMock = vi.fn(() =>
      Promise.resolve(new Response('{"data":{"valid":true,"benefit":"free_month"}}')),
    );
    vi.stubGlobal('fetch', fetchMock);
    await queryClient.query(promocodeQuery('MESGRATIS'));
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/core-api/public/api/v1/validate-promocode');
    expect(init.method).toBe('POST');
    expect(JSON.parse(init.body as string)).toEqual({ promocode: 'MESGRATIS' });
  });

  it('is empty without a code, validating until its answer is in, then valid or invalid', () => {
    expect(statusOf('  ')).toEqual({ state: 'empty' });
    expect(statusOf('MESGRATIS')).toEqual({ state: 'validating' });
    queryClient.setQueryData(promocodeQuery('MESGRATIS').queryKey, {
      valid: true,
      benefit: 'free_month',
    });
    queryClient.setQueryData(promocodeQuery('NOPE').queryKey, { valid: false, benefit: null });
    expect(statusOf(' MESGRATIS ')).toEqual({ state: 'valid', benefit: 'free_month' });
    expect(statusOf('NOPE')).toEqual({ state: 'invalid' });
  });

  it('is unknown when the check failed', async () => {
    await queryClient
      .query({
        ...promocodeQuery('MESGRATIS'),
        queryFn: () => Promise.reject(new TypeError('offline')),
        retry: false,
      })
      .catch(() => undefined);
    // As on screen once the check has failed: a new mount would check again.
    queryClient.setQueryDefaults(['promocode'], { retryOnMount: false });
    expect(statusOf('MESGRATIS')).toEqual({ state: 'unknown' });
  });

  it('waits for a code still being checked before a form is sent (issue 39)', async () => {
    const fetchMock = vi.fn((_url: string, init: RequestInit) =>
      Promise.resolve(
        new Response(
          (JSON.parse(init.body as string) as { promocode: string }).promocode === 'MESGRATIS'
            ? '{"data":{"valid":true,"benefit":"free_month"}}'
            : '{"data":{"valid":false,"benefit":null}}',
        ),
      ),
    );
    vi.stubGlobal('fetch', fetchMock);
    expect(await promocodeRefused(queryClient, '  ')).toBe(false);
    expect(await promocodeRefused(queryClient, ' MESGRATIS ')).toBe(false);
    expect(await promocodeRefused(queryClient, 'NOPE')).toBe(true);
    // The answer held is reused: one request per code.
    expect(await promocodeRefused(queryClient, 'MESGRATIS')).toBe(false);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('never holds a form on a check that fails or does not answer (issue 39)', async () => {
    const failing = vi.fn(() => Promise.reject(new TypeError('Failed to fetch')));
    vi.stubGlobal('fetch', failing);
    // One try, no back-off: a failed check refuses nothing.
    expect(await promocodeRefused(queryClient, 'MESGRATIS')).toBe(false);
    expect(failing).toHaveBeenCalledTimes(1);

    queryClient.clear();
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>(() => undefined)),
    );
    const started = Date.now();
    expect(await promocodeRefused(queryClient, 'MESGRATIS', 50)).toBe(false);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('checks the code even when the browser says it is offline (issue 39)', async () => {
    onlineManager.setOnline(false);
    try {
      vi.stubGlobal(
        'fetch',
        vi.fn(() => Promise.resolve(new Response('{"data":{"valid":false,"benefit":null}}'))),
      );
      expect(await promocodeRefused(queryClient, 'NOPE', 1_000)).toBe(true);
    } finally {
      onlineManager.setOnline(true);
    }
  });
});
