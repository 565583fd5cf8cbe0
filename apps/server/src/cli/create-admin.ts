/**
 * npm run admin:create -- --email ana@example.com --name "Ana Pérez"
 *
 * Creates a support-console admin (docs/decisions/057-admin-console.md) in the database the
 * server's configuration names (DATABASE_URL, else PGlite under DATA_DIR), migrating it first.
 * The password comes from ADMIN_PASSWORD, else is asked on the terminal (hidden), else is the
 * first line of standard input. Prints the TOTP secret and its otpauth:// URI once.
 * On the embedded database (PGlite), stop the server first: one process at a time may open it,
 * and while the server holds DATA_DIR/pglite.lock this refuses, naming its pid (decision 065).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase, pgliteDirectory } from '../db/database';
import { migrate, readMigrations } from '../db/migrate';
import { AdminsRepository } from '../repositories/admins.repository';
import { argon2PasswordHasher } from '../repositories/password-hasher';
import { otplibTotp } from '../repositories/totp';
import { adminTotpCipher, TotpSecretSealer } from '../repositories/totp-secret-sealer';
import { AdminEnrolmentError, enrolAdmin } from '../services/admin-enrolment';
import { cliConfig, runCli } from './run-cli';

const migrationsFolder = path.resolve(import.meta.dirname, '../../drizzle');
const usage = 'usage: npm run admin:create -- --email <e-mail> --name "<name>"';

/** Reads a line from the terminal without echoing it. */
function askHidden(question: string): Promise<string> {
  const { stdin, stdout } = process;
  return new Promise((resolve, reject) => {
    stdout.write(question);
    let answer = '';
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding('utf8');
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') {
          stdin.off('data', onData);
          stdin.setRawMode(false);
          stdin.pause();
          stdout.write('\n');
          resolve(answer);
          return;
        }
        if (char === '\u0003') {
          stdin.setRawMode(false);
          reject(new Error('cancelled'));
          return;
        }
        if (char === '\u007f' || char === '\b') answer = answer.slice(0, -1);
        else answer += char;
      }
    };
    stdin.on('data', onData);
  });
}

async function firstLineOfStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}

async function readPassword(): Promise<string> {
  const fromEnv = process.env.ADMIN_PASSWORD;
  if (fromEnv) return fromEnv;
  if (!process.stdin.isTTY) return firstLineOfStdin();
  const password = await askHidden('Password (12+ characters, a letter and a number): ');
  const again = await askHidden('Repeat the password: ');
  if (password !== again) throw new AdminEnrolmentError(['password: the two entries differ']);
  return password;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { email: { type: 'string' }, name: { type: 'string' } },
  });
  if (!values.email || !values.name) {
    console.error(usage);
    return 2;
  }
  const config = cliConfig();
  const password = await readPassword();
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    pgliteDir: pgliteDirectory(config.dataDir),
  });
  try {
    await migrate(database.db, await readMigrations(migrationsFolder));
    const admin = await enrolAdmin(
      new AdminsRepository(database.db),
      argon2PasswordHasher,
      otplibTotp,
      // The server's keys (ADMIN_TOTP_KEYS, else the key file in DATA_DIR/secrets).
      new TotpSecretSealer(await adminTotpCipher(config, new Date())),
      { email: values.email, name: values.name, password },
    );
    console.log(`Admin created: ${admin.email} (${admin.id})`);
    console.log('Add this account to an authenticator app now; it is not shown again.');
    console.log(`TOTP secret: ${admin.secret}`);
    console.log(`otpauth URI: ${admin.uri}`);
    return 0;
  } finally {
    await database.close();
  }
}

runCli('admin:create', main, [AdminEnrolmentError]);
