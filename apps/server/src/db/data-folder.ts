import fs from 'node:fs/promises';
import { StartupError } from '../startup-error';

/**
 * The embedded database's folder (DATA_DIR/pglite) before PGlite opens it (decision 065):
 * a missing or empty folder is a new install; a folder with files in it must hold a whole
 * PostgreSQL data directory, or the start stops. PGlite would otherwise initialise a new,
 * empty database over what is left, and the users, operations and admins would be gone.
 */

/** PostgreSQL's control file is always this size (PG_CONTROL_FILE_SIZE). */
const controlFileSize = 8192;

const restoreAdvice = (folder: string) =>
  `restore it from a backup with npm run db:restore -- <backup file> (the damaged folder is ` +
  `kept aside), or move ${folder} away to start an empty database`;

async function entries(folder: string): Promise<string[] | undefined> {
  try {
    return await fs.readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StartupError(
      `The database folder ${folder} cannot be read (${(error as Error).message}): ` +
        'check its owner and permissions',
    );
  }
}

/** Throws a StartupError naming the damaged part; resolves when the folder is new or whole. */
export async function checkPgliteFolder(folder: string): Promise<'new' | 'existing'> {
  const names = await entries(folder);
  if (names === undefined || names.length === 0) return 'new';
  const damaged = (part: string, what: string) =>
    new StartupError(
      `The database folder ${folder} is damaged: ${part} ${what}. It is not opened as a new ` +
        `database, so nothing in it is overwritten: ${restoreAdvice(folder)}`,
    );
  const version = await fs.readFile(`${folder}/PG_VERSION`, 'utf8').catch(() => undefined);
  if (version === undefined) throw damaged('PG_VERSION', 'is missing or unreadable');
  if (!/^\d+\s*$/.test(version)) throw damaged('PG_VERSION', 'does not hold a version number');
  const control = await fs.stat(`${folder}/global/pg_control`).catch(() => undefined);
  if (!control?.isFile()) throw damaged('global/pg_control', 'is missing');
  if (control.size !== controlFileSize) {
    throw damaged(
      'global/pg_control',
      `is ${String(control.size)} bytes instead of ${String(controlFileSize)} (truncated)`,
    );
  }
  const base = await fs.stat(`${folder}/base`).catch(() => undefined);
  if (!base?.isDirectory()) throw damaged('base/', 'is missing');
  return 'existing';
}

/** When PGlite itself fails on a folder that looked whole: one line instead of the WASM text. */
export function pgliteOpenError(folder: string, error: unknown): StartupError {
  const detail = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  return new StartupError(
    `The database folder ${folder} could not be opened (${detail.slice(0, 200)}): if it is ` +
      `damaged, ${restoreAdvice(folder)}`,
  );
}

/** Folders this process holds the lock of (a lock naming our own pid but not here is stale). */
const heldHere = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface FolderLock {
  readonly file: string;
  /** Idempotent; removes the file only while it still names this process. */
  release(): Promise<void>;
}

/** The lock file beside a PGlite folder: DATA_DIR/pglite.lock. */
export function lockFileOf(folder: string): string {
  return `${folder}.lock`;
}

/**
 * One process at a time on an embedded database folder: a lock file holding the owner's pid,
 * created exclusively. A lock whose process is gone (a crash, a kill -9) is taken over with a
 * line on `warn`. The server and every command line tool on the folder take it.
 */
export async function lockFolder(
  folder: string,
  warn: (message: string) => void = (message) => {
    console.warn(message);
  },
): Promise<FolderLock> {
  const file = lockFileOf(folder);
  if (heldHere.has(file)) {
    throw new StartupError(
      `The database folder ${folder} is already open in this process (lock ${file})`,
    );
  }
  for (let attempt = 0; ; attempt++) {
    try {
      await fs.writeFile(file, `${String(process.pid)}\n`, { flag: 'wx', mode: 0o600 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 2) throw error;
    }
    const text = await fs.readFile(file, 'utf8').catch(() => '');
    const pid = Number.parseInt(text.trim(), 10);
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
      throw new StartupError(
        `The database folder ${folder} is in use by process ${String(pid)} (lock ${file}): ` +
          'stop the server (or the command) using it first. If no such process uses it, ' +
          `delete ${file}`,
      );
    }
    warn(
      `Taking over the lock ${file}: the process that held it (${text.trim() || 'no pid'}) ` +
        'is gone',
    );
    await fs.rm(file, { force: true });
  }
  heldHere.add(file);
  let released: Promise<void> | undefined;
  return {
    file,
    release: () =>
      (released ??= (async () => {
        heldHere.delete(file);
        const text = await fs.readFile(file, 'utf8').catch(() => '');
        if (text.trim() === String(process.pid)) await fs.rm(file, { force: true });
      })()),
  };
}
