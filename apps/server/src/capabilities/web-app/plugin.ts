import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, sendError } from '../../http/errors';
import { registerWebApp } from '../../plugins/web-app';
import { BrokersRepository } from '../../repositories/brokers.repository';

export interface WebAppOptions {
  /** The web app's build (WEB_DIST_DIR, else apps/web/dist: app.ts names it). */
  dist: string;
}

/**
 * The web app's pages (prerendered, then the app's shell for its own paths) and the answer to
 * every address nothing else serves: the shell for a page, a localized 404 for the API.
 */
export const webApp = fp(
  async (app: FastifyInstance, options: WebAppOptions) => {
    const directory = new BrokersRepository(app.database.db);
    const servesWeb = await registerWebApp(app, options.dist, (id) => directory.linkableNameOf(id));
    app.setNotFoundHandler((request, reply) => {
      const isApi = request.url === '/core-api' || request.url.startsWith('/core-api/');
      const wantsPage = request.method === 'GET' || request.method === 'HEAD';
      if (servesWeb && !isApi && wantsPage) {
        return reply.header('cache-control', 'no-cache').sendFile('index.html');
      }
      return sendError(request, reply, new AppError('NOT_FOUND'));
    });
  },
  { name: 'web-app', dependencies: ['foundation', 'http'] },
);
