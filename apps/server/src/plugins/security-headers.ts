import helmet from 'helmet';
import type { FastifyInstance } from 'fastify';

/**
 * The Content-Security-Policy of every answer (decision 051). The bearer token lives in
 * localStorage (spec §3), so this policy is what stands between an injected script and an
 * account: scripts come from our own origin only (no inline script, no eval), and so do the
 * API and the Socket.IO channel ('self' covers ws:/wss: to the same host). Styles allow
 * 'unsafe-inline': Radix's dialogs lock scrolling with a <style> element they write at run
 * time (react-remove-scroll), and style attributes cannot run code.
 */
export const contentSecurityPolicy = {
  defaultSrc: ["'self'"],
  baseUri: ["'self'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  // Browsers reach the server over plain http on a developer's machine: HSTS (below)
  // is what keeps a deployment on https.
  upgradeInsecureRequests: null,
};

/** A year, as the HSTS preload list asks. */
const hstsMaxAgeSeconds = 365 * 24 * 60 * 60;

/**
 * helmet's middleware, built once at start. @fastify/helmet 13 calls `helmet(options)` inside
 * its onRequest hook, so it parsed the CSP's directives again on every request: 9% of
 * get-settings' CPU (issue 18; decision 069). The headers are the same for every answer, so the
 * middleware is built here once and run on the raw response, as @fastify/helmet itself does.
 */
const applyHelmetHeaders = helmet({
  contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy },
  // Older browsers read X-Frame-Options; newer ones frame-ancestors.
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  // Sent only over https (below): over plain http a browser ignores it anyway.
  strictTransportSecurity: false,
});

export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    // https as the request came to us, or as a trusted proxy says (X-Forwarded-Proto, TRUST_PROXY).
    if (request.protocol === 'https') {
      reply.header('strict-transport-security', `max-age=${hstsMaxAgeSeconds}; includeSubDomains`);
    }
    applyHelmetHeaders(request.raw, reply.raw, (error?: unknown) => {
      done(error instanceof Error ? error : undefined);
    });
  });
}
