import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built SPA: hashed assets cached for a year, index.html never cached, and
 * client routes answered with index.html (history fallback). Returns false when there
 * is no build to serve (development with Vite's own server).
 */
export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<boolean> {
  const indexFile = path.join(distDir, 'index.html');
  if (!fs.existsSync(indexFile)) {
    app.log.warn({ distDir }, 'no web build found; serving the API only');
    return false;
  }
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    preCompressed: true,
    index: false,
    cacheControl: false,
    setHeaders(reply, filePath) {
      const relative = path.relative(distDir, filePath);
      reply.header(
        'cache-control',
        relative.startsWith(`assets${path.sep}`)
          ? 'public, max-age=31536000, immutable'
          : 'no-cache',
      );
    },
  });
  return true;
}
