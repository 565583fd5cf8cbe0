import { describe, expect, it } from 'vitest';
import { authorizedGrantOf, linkedGrantOf, MalformedCTraderGrant } from './ctrader-grant';

const token = 'secret-access-token';

describe('a sealed cTrader grant, opened', () => {
  it('reads a linked grant and an authorisation with its expiry', () => {
    expect(linkedGrantOf(JSON.stringify({ accessToken: token, refreshToken: 'r' }))).toEqual({
      accessToken: token,
      refreshToken: 'r',
    });
    expect(
      authorizedGrantOf(
        JSON.stringify({
          accessToken: token,
          refreshToken: 'r',
          expiresAt: '2026-12-29T12:00:00.000Z',
        }),
      ),
    ).toEqual({
      accessToken: token,
      refreshToken: 'r',
      expiresAt: new Date('2026-12-29T12:00:00.000Z'),
    });
  });

  it('refuses what is not a grant with MalformedCTraderGrant, quoting none of it', () => {
    const malformed = [
      `{"accessToken":"${token}"`,
      JSON.stringify({ accessToken: token }),
      JSON.stringify({ accessToken: '', refreshToken: 'r' }),
      JSON.stringify({ accessToken: 42, refreshToken: 'r' }),
      JSON.stringify(null),
    ];
    for (const opened of malformed) {
      const error = (() => {
        try {
          linkedGrantOf(opened);
        } catch (thrown) {
          return thrown;
        }
        return undefined;
      })();
      expect(error, opened).toBeInstanceOf(MalformedCTraderGrant);
      expect(String((error as Error).stack), opened).not.toContain(token);
    }
  });

  it('refuses an authorisation without a valid expiry', () => {
    for (const expiresAt of [undefined, 'next month', 1_700_000_000_000]) {
      expect(() =>
        authorizedGrantOf(JSON.stringify({ accessToken: token, refreshToken: 'r', expiresAt })),
      ).toThrow(MalformedCTraderGrant);
    }
  });
});
