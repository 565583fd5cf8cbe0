import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { backupPglite, restorePglite } from '../src/db/backup';
import { lockFileOf } from '../src/db/data-folder';
import { openDatabase, pgliteDirectory, type Database } from '../src/db/database';
import { StartupError } from '../src/startup-error';

/**
 * Issue 18, findings 4 and 6, and issue 23's lock: the embedded database's folder on disk
 * (decisions 065 and 066). Each test works on its own copy of one folder made once (creating a
 * PGlite folder takes seconds).
 */
let root: string;
let template: string;

// Opening a PGlite folder takes seconds, more on a busy machine.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

async function rowsOf(database: Database): Promise<string[]> {
  const result = (await database.db.execute(sql`select name from kept order by 1`)) as {
    rows: { name: string }[];
  };
  return result.rows.map((row) => row.name);
}

/** A DATA_DIR whose pglite folder holds table `kept` with one row. */
async function dataDir(name: string): Promise<{ dir: string; folder: string }> {
  const dir = path.join(root, name);
  const folder = pgliteDirectory(dir);
  await fs.cp(template, folder, { recursive: true });
  return { dir, folder };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(StartupError);
  const message = (error as Error).message;
  expect(message).not.toContain('\n');
  return message;
}

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'tradebot-data-folder-'));
  template = path.join(root, 'template');
  const database = await openDatabase({ pgliteDir: template });
  await database.db.execute(sql`create table kept (name text primary key)`);
  await database.db.execute(sql`insert into kept values ('ana')`);
  await database.close();
});

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe('a damaged data folder is never served as a new database', () => {
  it('refuses a folder missing PG_VERSION, naming it, and leaves the folder as it was', async () => {
    const { folder } = await dataDir('no-version');
    await fs.rm(path.join(folder, 'PG_VERSION'));
    const before = (await fs.readdir(folder)).sort();
    const message = await refusal(openDatabase({ pgliteDir: folder }));
    expect(message).toContain(folder);
    expect(message).toContain('PG_VERSION');
    expect(message).toContain('npm run db:restore');
    expect((await fs.readdir(folder)).sort()).toEqual(before);
    // The refusal released the folder: no lock is left behind.
    await expect(fs.stat(lockFileOf(folder))).rejects.toThrow();
  });

  it('names a truncated global/pg_control instead of the WASM abort', async () => {
    const { folder } = await dataDir('short-control');
    await fs.truncate(path.join(folder, 'global', 'pg_control'), 100);
    const message = await refusal(openDatabase({ pgliteDir: folder }));
    expect(message).toContain('global/pg_control');
    expect(message).toContain('truncated');
    expect(message).not.toContain('Aborted');
  });

  it('refuses a folder without base/', async () => {
    const { folder } = await dataDir('no-base');
    await fs.rm(path.join(folder, 'base'), { recursive: true });
    expect(await refusal(openDatabase({ pgliteDir: folder }))).toContain('base/');
  });

  it('still opens a whole folder, and makes a new database in an empty one', async () => {
    const { folder } = await dataDir('whole');
    const database = await openDatabase({ pgliteDir: folder });
    expect(await rowsOf(database)).toEqual(['ana']);
    await database.close();
    const empty = path.join(root, 'empty', 'pglite');
    await fs.mkdir(empty, { recursive: true });
    const fresh = await openDatabase({ pgliteDir: empty });
    await fresh.close();
    expect(await fs.readdir(empty)).toContain('PG_VERSION');
  });
});

describe('one process at a time on the folder (issue 23)', () => {
  it('refuses while a live process holds the lock, naming it; takes over a dead one’s', async () => {
    const { folder } = await dataDir('locked');
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
      stdio: 'ignore',
    });
    try {
      const pid = holder.pid ?? 0;
      await fs.writeFile(lockFileOf(folder), `${String(pid)}\n`);
      const message = await refusal(openDatabase({ pgliteDir: folder }));
      expect(message).toContain(`process ${String(pid)}`);
      expect(message).toContain(folder);
      await expect(
        restorePglite(folder, path.join(root, 'none.tar.gz'), new Date()),
      ).rejects.toThrow();
    } finally {
      holder.kill();
      await new Promise((resolve) => holder.once('exit', resolve));
    }
    // The holder is gone: its lock is stale and taken over.
    const database = await openDatabase({ pgliteDir: folder });
    expect((await fs.readFile(lockFileOf(folder), 'utf8')).trim()).toBe(String(process.pid));
    // A second opening of the same folder, even in this process, is refused.
    expect(await refusal(openDatabase({ pgliteDir: folder }))).toContain('already open');
    await database.close();
    await expect(fs.stat(lockFileOf(folder))).rejects.toThrow();
  });
});

describe('db:backup and db:restore (decision 066)', () => {
  it('backs up, and restores over a damaged folder, keeping that one aside', async () => {
    const { dir, folder } = await dataDir('backed-up');
    const file = path.join(dir, 'backups', 'one.tar.gz');
    const { bytes } = await backupPglite(folder, file);
    expect(bytes).toBeGreaterThan(0);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    // Never over an existing backup.
    expect(await refusal(backupPglite(folder, file))).toContain('exists already');

    await fs.rm(path.join(folder, 'PG_VERSION'));
    await refusal(openDatabase({ pgliteDir: folder }));
    const { keptAside } = await restorePglite(folder, file, new Date('2026-11-25T06:30:00Z'));
    expect(keptAside).toBe(`${folder}.replaced-2026-11-25T06-30-00Z`);
    expect(await fs.readdir(keptAside ?? '')).toContain('base');

    const database = await openDatabase({ pgliteDir: folder });
    expect(await rowsOf(database)).toEqual(['ana']);
    await database.close();
  });

  it('a file that is not a backup changes nothing', async () => {
    const { dir, folder } = await dataDir('bad-backup');
    const file = path.join(dir, 'not-a-backup.tar.gz');
    await fs.writeFile(file, 'not a tarball');
    const before = (await fs.readdir(dir)).sort();
    expect(await refusal(restorePglite(folder, file, new Date()))).toContain('nothing was changed');
    expect((await fs.readdir(dir)).sort()).toEqual(before);
    const database = await openDatabase({ pgliteDir: folder });
    expect(await rowsOf(database)).toEqual(['ana']);
    await database.close();
  });

  it('there is nothing to back up in a missing folder', async () => {
    const folder = path.join(root, 'nothing', 'pglite');
    expect(await refusal(backupPglite(folder, path.join(root, 'nothing.tar.gz')))).toContain(
      'no database',
    );
  });
});

/** A command line tool of this workspace, as npm runs it (tsx), on `dataDir`. */
async function command(script: string, dataDir: string, args: string[] = []) {
  const tsx = path.resolve(import.meta.dirname, '../../../node_modules/.bin/tsx');
  return promisify(execFile)(tsx, [path.resolve(import.meta.dirname, script), ...args], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      INIT_CWD: '',
      ADMIN_PASSWORD: 'consola-segura-2026',
    },
  }).then(
    (result) => ({ code: 0, ...result }),
    (error: unknown) => error as { code: number; stdout: string; stderr: string },
  );
}

describe('the commands on the folder', () => {
  it('admin:create refuses while a process holds the folder; db:backup and db:restore round-trip', async () => {
    const { dir, folder } = await dataDir('commands');
    const held = await openDatabase({ pgliteDir: folder });
    try {
      const refused = await command('../src/cli/create-admin.ts', dir, [
        '--email',
        'ana@example.com',
        '--name',
        'Ana',
      ]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`in use by process ${String(process.pid)}`);
      expect((await command('../src/cli/db-backup.ts', dir)).stderr).toContain('in use');
    } finally {
      await held.close();
    }
    const file = path.join(dir, 'copy.tar.gz');
    const backup = await command('../src/cli/db-backup.ts', dir, ['--out', file]);
    expect(backup.stdout).toContain(`Backup written: ${file}`);
    expect(backup.stdout).toContain('the keys are not in the backup');
    await fs.truncate(path.join(folder, 'global', 'pg_control'), 0);
    const restored = await command('../src/cli/db-restore.ts', dir, [file]);
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain('kept as');
    const database = await openDatabase({ pgliteDir: folder });
    expect(await rowsOf(database)).toEqual(['ana']);
    await database.close();
  });
});

describe('db:restore of a corrupt file (issue 37, point 9)', () => {
  it.each([
    ['random bytes', (backup: Buffer) => randomBytes(Math.min(backup.length, 50_000))],
    ['a truncated backup', (backup: Buffer) => backup.subarray(0, Math.floor(backup.length / 2))],
    [
      'a gzip of something that is not a tar',
      () => gzipSync(Buffer.from('not a tar archive, only text\n'.repeat(200))),
    ],
  ])('says so in one line and leaves nothing behind: %s', async (_name, corrupt) => {
    const { dir, folder } = await dataDir(`corrupt-${randomBytes(4).toString('hex')}`);
    const good = path.join(root, `good-${randomBytes(4).toString('hex')}.tar.gz`);
    await backupPglite(folder, good);
    const file = path.join(root, `corrupt-${randomBytes(4).toString('hex')}.tar.gz`);
    await fs.writeFile(file, corrupt(await fs.readFile(good)));
    const before = (await fs.readdir(dir)).sort();
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const restored = await command('../src/cli/db-restore.ts', dir, [file]);
      expect(restored.code).toBe(1);
      expect(restored.stdout).toBe('');
      expect(restored.stderr.trim().split('\n')).toEqual([
        expect.stringContaining('could not be loaded'),
      ]);
      expect(restored.stderr).toContain('nothing was changed');
      // No staging folder, no lock: the folder's neighbours are as they were.
      expect((await fs.readdir(dir)).sort()).toEqual(before);
    }
    const database = await openDatabase({ pgliteDir: folder });
    expect(await rowsOf(database)).toEqual(['ana']);
    await database.close();
  });
});

describe('an unreachable PostgreSQL', () => {
  it('names DATABASE_URL, without its password, and what to do', async () => {
    const message = await refusal(
      openDatabase({ databaseUrl: 'postgres://tradebot:s3cret-pass@127.0.0.1:1/tradebot' }),
    );
    expect(message).toContain('DATABASE_URL');
    expect(message).toContain('postgres://tradebot:***@127.0.0.1:1/tradebot');
    expect(message).not.toContain('s3cret-pass');
    expect(message).toContain('ECONNREFUSED');
  });
});
