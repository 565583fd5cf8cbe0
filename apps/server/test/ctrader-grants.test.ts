import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { tradingPlatformLinks } from '../src/db/schema';
import { MalformedCTraderGrant } from '../src/domain/ctrader-grant';
import { CTraderGrantsRepository } from '../src/repositories/ctrader-grants.repository';
import { useTestApp } from './helpers/app';
import { linkAccount, paidUser } from './helpers/linking';

// The robot's and the broker backtest's grants load through one port (decision 165).
describe('the linked cTrader grants, loaded for the robot', () => {
  const context = useTestApp();

  it('opens each, checks it, and leaves out (naming it) one that is not a grant', async () => {
    const { app } = context;
    const cipher = app.keys.credentials;
    const asCTrader = async (email: string, ctid: number, grant: string) => {
      const user = await paidUser(app, email);
      expect((await linkAccount(app, user.headers)).statusCode).toBe(201);
      const sealed = cipher.seal(grant, user.userId);
      await app.database.db
        .update(tradingPlatformLinks)
        .set({
          platform: 'ctrader',
          platformAccountId: String(ctid),
          credentialsKeyId: sealed.keyId,
          credentialsCiphertext: sealed.ciphertext,
          brokerAccount: {
            ctidTraderAccountId: ctid,
            live: false,
            brokerName: 'Demo',
            traderLogin: 9,
            currency: 'EUR',
            leverage: 100,
          },
        })
        .where(eq(tradingPlatformLinks.userId, user.userId));
      return user.userId;
    };
    const ana = await asCTrader(
      'ana-grants@example.com',
      4_400_101,
      JSON.stringify({ accessToken: 'ana-token', refreshToken: 'ana-refresh' }),
    );
    const bea = await asCTrader(
      'bea-grants@example.com',
      4_400_102,
      JSON.stringify({ refreshToken: 'bea-refresh' }),
    );
    const unreadable: [string, unknown][] = [];
    const grants = new CTraderGrantsRepository(app.database.db, cipher, (userId, error) => {
      unreadable.push([userId, error]);
    });

    expect(await grants.linked()).toEqual([
      { accountId: ana, ctidTraderAccountId: 4_400_101, accessToken: 'ana-token', live: false },
    ]);
    expect(unreadable).toEqual([[bea, expect.any(MalformedCTraderGrant)]]);
    expect(await grants.linked(bea)).toEqual([]);
    expect(await grants.linked(ana)).toHaveLength(1);
  });
});
