import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { tradingPlatformLinks } from '../src/db/schema';
import { CachedTradingRepository } from '../src/repositories/cached-trading.repository';
import { SessionCache } from '../src/repositories/session-cache';
import { useTestApp } from './helpers/app';
import { linkAccount, paidUser } from './helpers/linking';

// Every get-all-data reads where the account lives; on PGlite that read waited in the
// database's one queue behind the robot's writes (docs/benchmarks.md, 2026-11-26 night).
describe('the account link, read through the session cache', () => {
  const context = useTestApp();

  it('is read once, and again only after a change of that user', async () => {
    const maria = await paidUser(context.app, 'maria@example.com');
    expect((await linkAccount(context.app, maria.headers)).statusCode).toBe(201);
    const cache = new SessionCache({ maxEntries: 100, ttlMs: 60_000 });
    const repository = new CachedTradingRepository(context.app.database.db, cache);
    const builtIn = { kind: 'simulated', currency: 'USD', ctidTraderAccountId: null };
    expect(await repository.accountLink(maria.userId)).toEqual(builtIn);

    // Changed behind the cache: what every link write is followed by has not happened yet.
    await context.app.database.db
      .update(tradingPlatformLinks)
      .set({
        platform: 'ctrader',
        brokerAccount: {
          ctidTraderAccountId: 7,
          live: false,
          brokerName: 'Demo',
          traderLogin: 9,
          currency: 'EUR',
          leverage: 100,
        },
      })
      .where(eq(tradingPlatformLinks.userId, maria.userId));
    expect(await repository.accountLink(maria.userId)).toEqual(builtIn);
    // A session ending, or another user changing, leaves it.
    await cache.changed({ kind: 'session', sessionId: 'some-session' });
    await cache.changed({ kind: 'user', userId: '00000000-0000-4000-8000-000000000001' });
    expect(await repository.accountLink(maria.userId)).toEqual(builtIn);

    // Linking, unlinking and deleting end in the user's change: the link is read again.
    await cache.changed({ kind: 'user', userId: maria.userId });
    expect(await repository.accountLink(maria.userId)).toEqual({
      kind: 'demo',
      currency: 'EUR',
      ctidTraderAccountId: 7,
    });
  });
});
