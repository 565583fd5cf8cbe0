import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
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
 * helmet's headers, built once at start. @fastify/helmet 13 calls `helmet(options)` inside its
 * onRequest hook, so it parsed the CSP's directives again on every request: 9% of
 * get-settings' CPU (issue 18; decision 069). Running the middleware built once still wrote
 * its eleven headers one by one on the raw response (each checked by Node, then merged with
 * Fastify's own at writeHead) on every request. With our options every value is a constant
 * (no nonce, nothing read from the request), so helmet itself runs once here on a Node response
 * that is never sent, and each answer gets the headers it wrote there through Fastify's reply
 * (decision 083): the same headers, from the same package, one writeHead.
 */
export function helmetHeaders(): Readonly<Record<string, string>> {
  const middleware = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy },
    // Older browsers read X-Frame-Options; newer ones frame-ancestors.
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Sent only over https (below): over plain http a browser ignores it anyway.
    strictTransportSecurity: false,
  });
  // A Node response that is never sent: helmet writes its headers on it as on any other.
  const request = new IncomingMessage(new Socket());
  const response = new ServerResponse(request);
  const outcome: { done: boolean; error?: unknown } = { done: false };
  middleware(request, response, (error?: unknown) => {
    outcome.done = true;
    outcome.error = error;
  });
  // Synchronous and error-free with constant options; anything else is a programming error.
  if (!outcome.done || outcome.error !== undefined) {
    throw new Error("helmet's headers could not be built once (not synchronous, or it failed)", {
      cause: outcome.error,
    });
  }
  const headers = Object.fromEntries(
    Object.entries(response.getHeaders()).map(([name, value]) => [name, String(value)]),
  );
  return Object.freeze(headers);
}

export function registerSecurityHeaders(app: FastifyInstance): void {
  const headers = helmetHeaders();
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers);
    // https as the request came to us, or as a trusted proxy says (X-Forwarded-Proto, TRUST_PROXY).
    if (request.protocol === 'https') {
      reply.header('strict-transport-security', `max-age=${hstsMaxAgeSeconds}; includeSubDomains`);
    }
    done();
  });
}
