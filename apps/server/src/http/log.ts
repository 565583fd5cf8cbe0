import type { FastifyLoggerOptions, FastifyRequest, FastifyServerOptions } from 'fastify';
import { messageOfLogCall, type RecentErrors } from '../services/recent-errors';

/**
 * What an error may say in a log line. A failed query carries its parameters (drizzle puts
 * them in the message and the stack: a password hash, an e-mail, a token hash), and a
 * database error its `detail` ("Key (email)=(...) already exists"), so an error is logged
 * field by field from a list of safe ones, never whole (decision 051).
 */
export interface LoggedError {
  type: string;
  message: string;
  code?: string | number;
  /** A database error's constraint, table, column and routine: names, never values. */
  constraint?: string;
  table?: string;
  column?: string;
  routine?: string;
  statusCode?: number;
  /** The frames, behind the safe message; empty when the error has none. */
  stack: string;
  cause?: LoggedError;
  [key: string]: unknown;
}

const maxCauses = 5;

/**
 * Query parameters that carry a credential: a signed card-page link (`?session=`), a reset or
 * verification token, a code, a key or a signature. Anyone holding one can use it, so it never
 * reaches a log line, whether the request's URL or an error's message (issue 18, finding 10).
 */
const credentialParameter =
  /([?&](?:[\w.-]*[_-])?(?:session|token|code|key|signature|sig|secret|password|otp|auth|state)=)[^&#\s"'<>]*/gi;

/** The text with each credential-carrying query value replaced by `[redacted]`. */
export function redactCredentials(text: string): string {
  return text.replace(credentialParameter, '$1[redacted]');
}

/** drizzle's "Failed query: <sql>\nparams: <values>": the SQL keeps its $1 placeholders. */
function withoutParams(text: string): string {
  return redactCredentials(
    text.replace(/\nparams: [\s\S]*?(?=\n {4}at |$)/, '\nparams: [not logged]'),
  );
}

function stringField(value: unknown): string | undefined {
  return typeof value === 'string' && value.length <= 200 ? value : undefined;
}

export function serializeError(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) {
    return { type: typeof error, message: '[a thrown non-error value, not logged]', stack: '' };
  }
  const fields = error as Error & Record<string, unknown>;
  const message = withoutParams(error.message);
  const logged: LoggedError = { type: error.name, message, stack: '' };
  const code = fields.code;
  if (typeof code === 'string' || typeof code === 'number') logged.code = code;
  for (const name of ['constraint', 'table', 'column', 'routine'] as const) {
    const value = stringField(fields[name]);
    if (value !== undefined) logged[name] = value;
  }
  if (typeof fields.statusCode === 'number') logged.statusCode = fields.statusCode;
  if (error.stack) {
    // The stack starts with the message: keep the frames after it, behind the safe message.
    const header = `${error.name}: ${error.message}`;
    const frames = error.stack.startsWith(header)
      ? redactCredentials(error.stack.slice(header.length))
      : `\n${error.stack
          .split('\n')
          .filter((line) => /^\s+at /.test(line))
          .join('\n')}`;
    logged.stack = `${error.name}: ${message}${frames}`;
  }
  if (error.cause !== undefined && depth < maxCauses) {
    logged.cause = serializeError(error.cause, depth + 1);
  }
  return logged;
}

/** Fastify's own request serializer, with the credentials in the URL hidden. */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: typeof request.url === 'string' ? redactCredentials(request.url) : request.url,
    version: [request.headers['accept-version']].flat()[0],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket.remotePort,
  };
}

/** The server's logger: errors by the list above, credentials in headers and URLs hidden. */
export function loggerOptions(
  level: string,
  stream?: FastifyLoggerOptions['stream'],
  recentErrors?: RecentErrors,
): FastifyServerOptions['logger'] {
  return {
    level,
    // Error lines are also kept for the console's system page (decision 160).
    ...(recentErrors
      ? {
          hooks: {
            logMethod(
              this: unknown,
              args: unknown[],
              method: (...a: unknown[]) => void,
              at: number,
            ) {
              if (at >= 50) recentErrors.add(messageOfLogCall(args));
              method.apply(this, args);
            },
          },
        }
      : {}),
    redact: ['req.headers.authorization', 'req.headers.cookie'],
    serializers: {
      err: (error) => serializeError(error),
      req: serializeRequest,
    },
    ...(stream ? { stream } : {}),
  };
}
