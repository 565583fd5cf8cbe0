import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const root = path.resolve(import.meta.dirname, '../..');

export interface ConsoleAdmin {
  email: string;
  name: string;
  password: string;
}

/**
 * `npm run admin:create`, as the README documents it, against a server's DATA_DIR (PGlite), or
 * the database `env` names (DATABASE_URL, with the servers' ADMIN_TOTP_KEYS): resolves the TOTP
 * secret it prints once, and everything it printed.
 */
export async function createAdminWithCli(
  dataDir: string,
  admin: ConsoleAdmin,
  env: Record<string, string> = {},
): Promise<{ secret: string; stdout: string }> {
  const { stdout } = await promisify(execFile)(
    'npm',
    ['run', '--silent', 'admin:create', '--', '--email', admin.email, '--name', admin.name],
    {
      cwd: root,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        ADMIN_PASSWORD: admin.password,
        ...env,
      },
    },
  );
  const secret = /^TOTP secret: ([A-Z2-7]+)$/m.exec(stdout)?.[1];
  if (!secret) throw new Error(`no TOTP secret in:\n${stdout}`);
  return { secret, stdout };
}
