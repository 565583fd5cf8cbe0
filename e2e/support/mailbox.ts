import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * The newest .eml written to `to` under DATA_DIR/mail/ (embedded mode writes RFC 822
 * files there), waiting for it to appear.
 */
export async function latestMailTo(dataDir: string, to: string, timeoutMs = 10_000) {
  const directory = path.join(dataDir, 'mail');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const names = (await fs.readdir(directory).catch(() => [] as string[]))
      .filter((name) => name.endsWith('.eml'))
      .sort()
      .reverse();
    for (const name of names) {
      const content = await fs.readFile(path.join(directory, name), 'utf8');
      if (new RegExp(`^To: .*${to.replace(/[.+]/g, '\\$&')}`, 'mi').test(content)) return content;
    }
    if (Date.now() > deadline) throw new Error(`no e-mail to ${to} in ${directory}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The six-digit recovery code in an e-mail. */
export function recoveryCode(eml: string): string {
  const code = /(?:^|\s)(\d{6})(?:\s|$)/m.exec(eml.replace(/=\r?\n/g, ''))?.[1];
  if (!code) throw new Error('no six-digit code in the e-mail');
  return code;
}
