import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UserRow } from '../repositories/users.repository';
import { AppError } from './errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by requireUser on authenticated routes. */
    user?: UserRow;
    sessionId?: string;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** preHandler: the request must carry a live session's bearer token. */
export function requireUser(app: FastifyInstance) {
  return async (request: FastifyRequest) => {
    const token = bearerToken(request);
    const session = token ? await app.services.auth.authenticate(token) : undefined;
    if (!session) throw new AppError('UNAUTHENTICATED');
    request.user = session.user;
    request.sessionId = session.sessionId;
  };
}

/** The authenticated user of a route guarded by requireUser. */
export function userOf(request: FastifyRequest): UserRow {
  if (!request.user) throw new AppError('UNAUTHENTICATED');
  return request.user;
}
