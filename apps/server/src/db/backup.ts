import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { StartupError } from '../startup-error';
import { checkPgliteFolder, lockFolder, pgliteOpenError } from './data-folder';

/**
 * Backup and restore of the embedded database (decision 066): PGlite's own dump of its data
 * folder, a gzipped tar, taken and loaded while no other process holds the folder (its lock).
 */

const stamp = (now: Date) =>
  now
    .toISOString()
    .replaceAll(':', '-')
    .replace(/\.\d+Z$/, 'Z');

/** DATA_DIR/backups/tradebot-2026-11-25T06-30-00Z.tar.gz */
export function defaultBackupFile(dataDir: string, now: Date): string {
  return path.join(dataDir, 'backups', `tradebot-${stamp(now)}.tar.gz`);
}

/** Writes the folder's dump to `file` (never over an existing file, owner-readable only). */
export async function backupPglite(folder: string, file: string): Promise<{ bytes: number }> {
  if ((await checkPgliteFolder(folder)) === 'new') {
    throw new StartupError(`There is no database in ${folder} to back up`);
  }
  const lock = await lockFolder(folder);
  try {
    await checkPgliteFolder(folder);
    const client = await PGlite.create(folder).catch((error: unknown) => {
      throw pgliteOpenError(folder, error);
    });
    let dump: Blob;
    try {
      dump = await client.dumpDataDir('gzip');
    } finally {
      await client.close();
    }
    const bytes = Buffer.from(await dump.arrayBuffer());
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await fs.writeFile(file, bytes, { flag: 'wx', mode: 0o600 }).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
        throw new StartupError(`${file} exists already: give another file with --out`);
      }
      throw error;
    });
    return { bytes: bytes.length };
  } finally {
    await lock.release();
  }
}

export interface RestoreReport {
  /** Where the folder that was replaced now is; undefined when there was none. */
  keptAside: string | undefined;
}

/** A backup that does not load, in one line: nothing was changed. */
function notLoaded(file: string, error: unknown): StartupError {
  const detail = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  return new StartupError(
    `The backup ${file} could not be loaded (${detail.slice(0, 200)}): nothing was changed; ` +
      'is it a file made by npm run db:backup?',
  );
}

/**
 * Loads a backup into a new folder beside `folder`, checks that it opens, then puts it in
 * `folder`'s place. The folder it replaces is renamed, never deleted; a backup that does not
 * load changes nothing.
 */
export async function restorePglite(
  folder: string,
  file: string,
  now: Date,
): Promise<RestoreReport> {
  const archive = await fs.readFile(file).catch((error: unknown) => {
    throw new StartupError(`The backup ${file} cannot be read (${(error as Error).message})`);
  });
  // Unzipped here first, where a corrupt or truncated file is an error we catch: PGlite unzips
  // in a stream whose failure nobody awaits, which crashed the command (issue 37, point 9).
  await promisify(gunzip)(archive).catch((error: unknown) => {
    throw notLoaded(file, error);
  });
  const lock = await lockFolder(folder);
  const staging = `${folder}.restoring-${stamp(now)}`;
  try {
    await fs.rm(staging, { recursive: true, force: true });
    try {
      const client = await PGlite.create(staging, { loadDataDir: new Blob([archive]) });
      try {
        await client.query('select 1');
      } finally {
        await client.close();
      }
    } catch (error) {
      await fs.rm(staging, { recursive: true, force: true });
      throw notLoaded(file, error);
    }
    let keptAside: string | undefined;
    const existing = await fs.readdir(folder).catch(() => undefined);
    if (existing?.length === 0) await fs.rmdir(folder);
    else if (existing) {
      keptAside = `${folder}.replaced-${stamp(now)}`;
      await fs.rename(folder, keptAside);
    }
    await fs.rename(staging, folder);
    return { keptAside };
  } finally {
    await lock.release();
  }
}
