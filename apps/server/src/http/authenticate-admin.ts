import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AdminRow } from '../repositories/admins.repository';
import { bearerToken } from './authenticate';
import { AppError } from './errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by requireAdmin on the console's routes. */
    admin?: { row: AdminRow; sessionId: string; expiresAt: Date };
  }
}

/**
 * preHandler of the console's routes: an admin session with its second factor. A session
 * still waiting for its TOTP code is a 401, and a user's token a 403
 * (docs/decisions/057-admin-console.md).
 */
export function requireAdmin(app: FastifyInstance) {
  return async (request: FastifyRequest) => {
    const token = bearerToken(request);
    const found = token
      ? await app.services.adminAuth.authenticate(token)
      : ({ kind: 'none' } as const);
    switch (found.kind) {
      case 'admin':
        request.admin = {
          row: found.admin,
          sessionId: found.sessionId,
          expiresAt: found.expiresAt,
        };
        return;
      case 'second-factor-missing':
        throw new AppError('UNAUTHENTICATED', { key: 'admin.secondFactorRequired' });
      case 'user':
        throw new AppError('FORBIDDEN', { key: 'admin.adminsOnly' });
      case 'none':
        throw new AppError('UNAUTHENTICATED');
    }
  };
}

/** The admin of a route guarded by requireAdmin. */
export function adminOf(request: FastifyRequest): {
  row: AdminRow;
  sessionId: string;
  expiresAt: Date;
} {
  if (!request.admin) throw new AppError('UNAUTHENTICATED');
  return request.admin;
}
