// The seeding step of e2e/linking.e2e.ts, run while no server runs (PGlite takes one process
// at a time). The payment flow is another issue's, so it marks registered users as paid:
//
//   paid <email>...                  the users have paid (authorized), nothing linked
//   platform <email> <password>      the platform already has an account for the e-mail
//                                    (registered there before), with that platform password
import { eq, sql } from 'drizzle-orm';
import { builtInPlatform } from '@tradebot/contract';
import { loadConfig } from '../src/config';
import { openDatabase, pgliteDirectory } from '../src/db/database';
import { platformUsers, userSettings, users } from '../src/db/schema';
import { argon2PasswordHasher } from '../src/repositories/password-hasher';

const [mode, ...args] = process.argv.slice(2);
const config = loadConfig();
const database = await openDatabase({
  databaseUrl: config.DATABASE_URL,
  pgliteDir: pgliteDirectory(config.dataDir),
});
const { db } = database;

async function userIdOf(email: string): Promise<string> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`);
  if (!row) throw new Error(`no user ${email}: register it through the API first`);
  return row.id;
}

try {
  if (mode === 'paid') {
    for (const email of args) {
      await db
        .update(userSettings)
        .set({ authorized: true })
        .where(eq(userSettings.userId, await userIdOf(email)));
    }
  } else if (mode === 'platform' && args[0] && args[1]) {
    await db.insert(platformUsers).values({
      accountId: await userIdOf(args[0]),
      email: args[0],
      passwordHash: await argon2PasswordHasher.hash(args[1]),
      startingBalanceCents: builtInPlatform.startingBalanceCents,
    });
  } else {
    throw new Error('usage: e2e-linking-seed paid <email>... | platform <email> <password>');
  }
} finally {
  await database.close();
}
