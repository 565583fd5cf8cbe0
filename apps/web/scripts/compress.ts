import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** What is worth compressing: text. Images other than SVG and fonts are compressed already. */
const compressible = /\.(?:html|js|mjs|css|svg|json|xml|txt|webmanifest)$/;
/** Below this a compressed copy saves less than its headers cost (@fastify/compress agrees). */
const minimumBytes = 1024;

/**
 * Writes `file.br` (brotli, quality 11) and `file.gz` (gzip, level 9) next to every
 * compressible file under `directory`, so the server sends them as they are
 * (@fastify/static's preCompressed) instead of compressing on each request. A copy that is
 * not smaller than the original is not written. Returns how many files got copies.
 */
export async function compressDirectory(directory: string): Promise<number> {
  const entries = await fs.readdir(directory, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile() && compressible.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
  let count = 0;
  for (const file of files) {
    const content = await fs.readFile(file);
    if (content.length < minimumBytes) continue;
    const [br, gz] = await Promise.all([
      brotli(content, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
        },
      }),
      gzip(content, { level: zlib.constants.Z_BEST_COMPRESSION }),
    ]);
    if (br.length < content.length) await fs.writeFile(`${file}.br`, br);
    if (gz.length < content.length) await fs.writeFile(`${file}.gz`, gz);
    count += 1;
  }
  return count;
}
