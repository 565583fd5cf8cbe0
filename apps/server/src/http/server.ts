import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyLoggerOptions } from 'fastify';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import secureJson from 'secure-json-parse';
import type { Config } from '../config';
import { AppError, handleError } from './errors';
import { RecentErrors } from '../services/recent-errors';
import { loggerOptions } from './log';
import { validatorCompiler } from './validation';

/** A hop count trusts that many proxies nearest to us, as proxy-addr counts them. */
function trustProxyOption(
  value: Config['TRUST_PROXY'],
): false | string[] | ((address: string, hop: number) => boolean) {
  return typeof value === 'number' ? (_address, hop) => hop < value : value;
}

const requestIdPattern = /^[\w.:-]{1,64}$/;

/**
 * The Fastify instance every capability registers on: logging, proxies, request ids, the JSON
 * parser, zod validation and the error table, and connections closed while shutting down.
 */
export function createServer(
  config: Config,
  logStream: FastifyLoggerOptions['stream'] | undefined,
): FastifyInstance {
  const recentErrors = new RecentErrors();
  const app = Fastify({
    logger: loggerOptions(config.LOG_LEVEL, logStream, recentErrors),
    // A hop count or the proxies' addresses, never "any proxy" (decision 051).
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    bodyLimit: 256 * 1024,
    requestIdHeader: false,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && requestIdPattern.test(incoming)
        ? incoming
        : randomUUID();
    },
    return503OnClosing: true,
    // Capability plugins start the robot, migrate and check keys: no start-up step had a time
    // limit before they were plugins, and a loaded machine takes more than avvio's 10 s.
    pluginTimeout: 0,
    // A URL that does not decode (FST_ERR_BAD_URL) gets the same localized error as the rest.
    frameworkErrors: (error, request, reply) => {
      void handleError(error, request, reply);
    },
  }).withTypeProvider<ZodTypeProvider>();

  app.decorate('recentErrors', recentErrors);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(handleError);

  // An empty JSON body means "no payload" (spec §7 calls such as newsletter send none).
  // The API speaks JSON only: anything else is a 415.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    try {
      done(
        null,
        secureJson.parse(text, undefined, { protoAction: 'remove', constructorAction: 'remove' }),
      );
    } catch {
      done(new AppError('INVALID_JSON'), undefined);
    }
  });

  // While shutting down, answers close their connection: otherwise an idle keep-alive
  // socket left by an in-flight request would hold close() open for the keep-alive timeout.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // A callback, not an async function: it runs on every answer, and an async hook costs a
  // promise and a trip through the microtask queue each time (decision 083).
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's last error lines (the console's system page, decision 160). */
    recentErrors: RecentErrors;
  }
}
