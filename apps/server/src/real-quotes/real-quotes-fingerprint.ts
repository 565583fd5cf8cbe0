import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { realQuotesChildCommand } from './real-quotes-runner';

/** Every regular file under `folder` (dot files aside), as paths relative to it, sorted. */
async function filesUnder(folder: string, relative = ''): Promise<string[]> {
  const entries = await readdir(path.join(folder, relative), { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (entry.name.startsWith('.')) continue;
    const name = path.posix.join(relative, entry.name);
    if (entry.isDirectory()) files.push(...(await filesUnder(folder, name)));
    else if (entry.isFile()) files.push(name);
  }
  return files;
}

async function fileHash(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/**
 * The data's fingerprint (decision 142): SHA-256 over every file's path in the folder and the
 * SHA-256 of its content. Renaming, adding, removing or changing any file changes it; copying
 * the folder elsewhere does not. The OANDA sample (24 MB) takes a fraction of a second.
 */
export async function folderFingerprint(folder: string): Promise<string> {
  const hash = createHash('sha256');
  for (const name of await filesUnder(folder)) {
    hash.update(`${name}\0${await fileHash(path.join(folder, name))}\n`);
  }
  return hash.digest('hex');
}

/**
 * The robot's version, as far as these figures go: SHA-256 of the code the child runs. Built,
 * that is its bundle (`dist/real-quotes-child.js`, every robot module it uses inlined); from
 * source, every non-test module of the robot package and of this folder. Any change to the
 * robot's code makes the server compute the figures again.
 */
export async function robotCodeVersion(): Promise<string> {
  const { script, execArgv } = realQuotesChildCommand();
  const hash = createHash('sha256');
  if (execArgv.length === 0) {
    hash.update(await readFile(script));
    return hash.digest('hex');
  }
  const folders = [
    fileURLToPath(new URL('../../../../packages/robot/src/', import.meta.url)),
    path.dirname(script),
  ];
  for (const folder of folders) {
    for (const name of await filesUnder(folder)) {
      if (!name.endsWith('.ts') || name.endsWith('.test.ts')) continue;
      hash.update(`${name}\0`);
      hash.update(await readFile(path.join(folder, name)));
    }
  }
  return hash.digest('hex');
}
