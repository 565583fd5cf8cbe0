import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/migrate';
import { v1 } from './helpers/accounts';
import { openCount, runMarket, storedTrades, trader, useRobotApp } from './helpers/trading';

const exportUrl = `${v1}/account/data-export`;

interface Exported {
  format: string;
  about: string;
  profile: { email: string; name: string };
  consents: unknown[];
  sessions: { id: string }[];
  operations: { positionId: string; closeReason: string }[];
  deposits: unknown[];
  platformAccount: { depositsCents: number } | null;
  platformLogin: { email: string } | null;
  supportMessages: { subject: string; body: string }[];
}

/** "Download my data" (issue 39; LGPD art. 18; decision 153), on the real app and database. */
describe('the user downloads their data', () => {
  const context = useRobotApp({ LOG_LEVEL: 'error' });

  it('needs a session (401) and allows five an hour per user (429 after)', async () => {
    expect((await context.app.inject({ url: exportUrl })).statusCode).toBe(401);
    const { headers } = await trader(context.app);
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await context.app.inject({ url: exportUrl, headers })).statusCode).toBe(200);
    }
    const refused = await context.app.inject({
      url: exportUrl,
      headers: { ...headers, 'accept-language': 'pt' },
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('gives every section as a JSON file, with no hash, token or sealed credential, and audits it', async () => {
    const { headers, userId } = await trader(context.app, { email: 'lucia@example.com' });
    const other = await trader(context.app, { email: 'bruno@example.com' });
    await runMarket(context, async () => (await openCount(context.app, userId)) >= 2);
    await context.app.inject({
      method: 'POST',
      url: `${v1}/contact`,
      headers,
      payload: {
        kind: 'customer_service',
        subject: 'Una duda',
        message: '¿Cómo apago el robot?',
      },
    });

    const response = await context.app.inject({
      url: exportUrl,
      headers: { ...headers, 'accept-language': 'pt-BR' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="tradebot-data-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.body;
    const data = JSON.parse(body) as Exported;
    expect(data.format).toBe('tradebot-personal-data');
    expect(data.about).toMatch(/^Cópia dos dados pessoais/);
    expect(data.profile).toMatchObject({ email: 'lucia@example.com' });
    expect(data.consents.length).toBeGreaterThan(0);
    expect(data.sessions.length).toBeGreaterThan(0);
    expect(data.deposits.length).toBeGreaterThan(0);
    // The test trader has an account at the built-in platform without a link row.
    expect(data.platformAccount).toMatchObject({ depositsCents: 1_000_000 });
    expect(data.supportMessages).toMatchObject([
      { subject: 'Una duda', body: '¿Cómo apago el robot?' },
    ]);
    const stored = await storedTrades(context.app, userId);
    expect(stored.length).toBeGreaterThanOrEqual(2);
    expect(data.operations.map((row) => row.positionId).sort()).toEqual(
      stored.map((row) => row.positionId).sort(),
    );

    // Nothing secret, and nothing of another user's.
    const { db } = context.app.database;
    const secrets = rowsOf<{ value: string | null }>(
      await db.execute(sql`
      select password_hash as value from users
      union all select token_hash from sessions
      union all select password_hash from platform_users
      union all select credentials_ciphertext from trading_platform_links
      union all select code_hash from password_reset_codes`),
    );
    const values = secrets.map((row) => row.value).filter((v): v is string => !!v);
    expect(values.length).toBeGreaterThan(3);
    for (const value of values) expect(body).not.toContain(value);
    expect(body).not.toMatch(/argon2|[Cc]iphertext|tokenHash|passwordHash|codeHash|p256dh/);
    expect(body).not.toContain(headers.authorization.slice('Bearer '.length));
    expect(body).not.toContain('bruno@example.com');
    expect(body).not.toContain(other.userId);

    // Audited: who and how big, never the content.
    const audit = rowsOf<{ after: { bytes: number; counts: { operations: number } } }>(
      await db.execute(
        sql`select after from admin_audit_log
            where action = 'user.data_exported' and target_id = ${userId} and admin_id is null`,
      ),
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]?.after.bytes).toBe(Buffer.byteLength(body));
    expect(audit[0]?.after.counts.operations).toBe(stored.length);
  });
});
