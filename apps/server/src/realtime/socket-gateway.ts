import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { createAdapter } from '@socket.io/redis-adapter';
import {
  defaultLanguage,
  errorMessageKey,
  isLanguage,
  languageFromAcceptLanguage,
  realtimeEventName,
  realtimePath,
  translate,
  type ErrorCode,
  type Language,
  type RealtimeEvent,
  type RealtimeInfo,
} from '@tradebot/contract';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import type { Config } from '../config';
import type {
  AccountCommand,
  AccountCommandReply,
  ScaledAccountCommands,
} from '../robot/link/account-commands';
import type { AuthService, SessionsRevoked } from '../services/auth.service';
import { socketConnections } from '../metrics/server-metrics';
import type { RealtimePublisher } from './realtime-publisher';
import { RecentRevocations } from './recent-revocations';
import { RemotePresence } from './remote-presence';

declare module 'fastify' {
  interface FastifyInstance {
    /** The user's private channel (spec §4 Real-time updates), backed by Socket.IO. */
    realtime: RealtimePublisher;
  }
}

/** How long a closing WebSocket may wait for its peer's answer at shutdown. */
const closingHandshakeMs = 1000;

export const userRoom = (userId: string) => `user:${userId}`;
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;

interface ServerToClientEvents {
  [realtimeEventName]: (event: RealtimeEvent) => void;
}
/** Clients only listen: an event they send matches no handler. */
type ClientToServerEvents = Record<string, never>;
interface SocketData {
  userId: string;
  sessionId: string;
}
/** Between server processes (scaled mode). */
interface InterServerEvents {
  sessionsRevoked: (revoked: SessionsRevoked) => void;
  /** The sending process (`from`) holds sockets of these users. */
  present: (from: string, userIds: string[]) => void;
  /** The sending process no longer holds a socket of these users. */
  absent: (from: string, userIds: string[]) => void;
  /** A process that just started asks the others to announce their users. */
  presenceAsked: () => void;
  /** A command for the process holding an account's lease (decision 105). */
  accountCommand: (command: AccountCommand, answer: (reply: AccountCommandReply) => void) => void;
  /** The linked cTrader accounts changed: every robot reads them again (decision 096). */
  grantsChanged: () => void;
}
type RealtimeServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  InterServerEvents,
  SocketData
>;
type RealtimeSocket = Socket<
  ClientToServerEvents,
  ServerToClientEvents,
  InterServerEvents,
  SocketData
>;

/** What a refused connection carries to the client's `connect_error`, next to the message. */
export interface RealtimeRefusal {
  code: ErrorCode;
}

export interface RealtimeDependencies {
  auth: AuthService;
  /** Scaled set-up: commands for the process holding an account travel over the adapter. */
  accountCommands?: ScaledAccountCommands;
  /**
   * What the user's account shows live now (the holder's view, when scaled): each socket gets
   * it as it connects (issue 40). Updates reach only users listening, so one who was not got
   * none meanwhile.
   */
  currentInfo?: (userId: string) => Promise<RealtimeInfo | undefined>;
}

/**
 * Scaled mode: each process tells the others which users it holds sockets of (decision 092,
 * presence), so that a process builds updates only for users listening somewhere. It announces
 * a user when their first socket joins and says so when the last one leaves, re-announces all
 * of its users every `refreshMs`, and an announcement counts for `ttlMs`: a process that died
 * without a word stops counting by then.
 */
const presenceTimings = { refreshMs: 20_000, ttlMs: 60_000 };
/** Users per presence message, so that one message stays small however many are connected. */
const presenceChunk = 2_000;

/**
 * How long a process waits for the others' answers to an account command (decision 105): the
 * holder answers once its closings landed; without its answer by then, the user retries.
 */
export const accountCommandTimeoutMs = 10_000;

const bearerPattern = /^Bearer\s+(\S+)\s*$/i;

/** `auth.token` in the handshake (what the web app sends), else an Authorization header. */
export function handshakeToken(
  auth: Record<string, unknown>,
  headers: IncomingHttpHeaders,
): string | undefined {
  if (typeof auth.token === 'string' && auth.token !== '') return auth.token;
  const header = headers.authorization;
  return header ? bearerPattern.exec(header)?.[1] : undefined;
}

function handshakeLanguage(auth: Record<string, unknown>, headers: IncomingHttpHeaders): Language {
  if (isLanguage(auth.language)) return auth.language;
  return languageFromAcceptLanguage(headers['accept-language']) ?? defaultLanguage;
}

function refusal(language: Language, code: ErrorCode): Error & { data: RealtimeRefusal } {
  return Object.assign(new Error(translate(language, errorMessageKey(code))), { data: { code } });
}

/**
 * A Redis connection of the Socket.IO adapter. The adapter sends most commands without awaiting
 * them (a publish on every emit, subscriptions as a namespace starts, unsubscriptions as it
 * closes): while Redis is down each of them fails once the client gives up retrying, and Node
 * ends the process on a rejection nobody handles. Each command here gets a handler; the outage
 * itself is logged by the connection's `error` events.
 */
class AdapterConnection extends Redis {
  override sendCommand(...args: Parameters<Redis['sendCommand']>): unknown {
    const sent = super.sendCommand(...args);
    if (sent instanceof Promise) sent.catch(() => undefined);
    return sent;
  }
}

/**
 * Quits over a live connection; otherwise drops it at once: QUIT would wait in the offline
 * queue behind what it holds, through every reconnection attempt.
 */
async function quitOrDrop(client: Redis): Promise<void> {
  if (client.status === 'ready') {
    await client.quit();
    return;
  }
  client.disconnect();
}

/** How long the start waits for the adapter's subscriptions before it serves anyway. */
const subscriptionWaitMs = 5_000;

function createRedisAdapter(app: FastifyInstance, redisUrl: string, requestsTimeout: number) {
  // An emit while Redis is down fails after a few retries (that update does not reach the
  // other processes' sockets) rather than queue without bound.
  const publisher = new AdapterConnection(redisUrl, { maxRetriesPerRequest: 2 });
  // The subscriber's commands wait for Redis however long it takes: the adapter subscribes
  // once per namespace, at the start, and ioredis only resubscribes what Redis confirmed. A
  // SUBSCRIBE given up while Redis was down would leave this process deaf to every other one.
  const subscriber = new AdapterConnection(redisUrl, { maxRetriesPerRequest: null });
  for (const client of [publisher, subscriber]) {
    client.on('error', (error: unknown) => {
      app.log.warn({ err: error }, 'real-time Redis connection failed');
    });
  }
  return {
    // `requestsTimeout`: how long a server-side emit waits for the other processes' answers.
    adapter: createAdapter(publisher, subscriber, { key: 'tradebot:realtime', requestsTimeout }),
    /**
     * Resolves once the adapter's subscriptions are in place: Redis answers a connection's
     * commands in order, so the PING's reply comes after theirs.
     */
    async subscribed() {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          reject(new Error(`Redis did not answer within ${String(subscriptionWaitMs)} ms`));
        }, subscriptionWaitMs);
      });
      try {
        await Promise.race([subscriber.ping(), timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      await Promise.allSettled([quitOrDrop(publisher), quitOrDrop(subscriber)]);
    },
  };
}

/** What the realtime capability wires: the publisher, and scaled mode's presence heartbeat. */
export interface RealtimeGateway {
  readonly publisher: RealtimePublisher;
  /**
   * Scaled mode only: re-announces this process's users and forgets the others' stale ones.
   * Every process runs it (its users are its own), as a job of the registry (decision 145).
   */
  readonly presenceHeartbeat: { readonly everyMs: number; readonly run: () => void } | undefined;
}

/**
 * Socket.IO on the server's own port and path (spec §4 Real-time updates): a socket
 * authenticates with the session's bearer token and joins its user's room and its session's
 * room, so logout closes one session's sockets and a password change all of the user's.
 * With REDIS_URL the Redis adapter carries events and disconnections between processes.
 * Decorates `app.realtime` with the publisher the robot's updates go through.
 */
export async function registerRealtime(
  app: FastifyInstance,
  config: Pick<Config, 'REDIS_URL'>,
  dependencies: RealtimeDependencies,
): Promise<RealtimeGateway> {
  const io: RealtimeServer = new Server(app.server, {
    path: realtimePath,
    serveClient: false,
    // Clients send nothing but the handshake: a small frame limit keeps abuse cheap.
    maxHttpBufferSize: 16 * 1024,
  });
  const redis = config.REDIS_URL
    ? createRedisAdapter(app, config.REDIS_URL, accountCommandTimeoutMs)
    : undefined;
  if (redis) {
    io.adapter(redis.adapter);
    // A process that took sockets before subscribing would miss the events meant for them.
    // Redis down at boot is not fatal: the subscriptions wait for it, and are made when it
    // comes back.
    await redis.subscribed().catch((error: unknown) => {
      app.log.warn({ err: error }, 'real-time Redis subscription not confirmed at start');
    });
  }
  const scaled = redis !== undefined;
  const presence = scaled ? scaledPresence(io, presenceTimings) : undefined;
  const revocations = new RecentRevocations();
  io.on('sessionsRevoked', (revoked) => {
    revocations.record(revoked);
  });
  const commands = scaled ? dependencies.accountCommands : undefined;
  // The asking process waits for every process on the adapter: one that cannot hold accounts
  // (no leases here) says so at once rather than let it wait out the timeout.
  if (scaled && !commands) {
    io.on('accountCommand', (_command, answer) => {
      answer({ held: false });
    });
  }
  if (commands) {
    io.on('accountCommand', (command, answer) => {
      commands.answer(command).then(answer, (error: unknown) => {
        app.log.error({ err: error }, 'account command: answering another process failed');
        answer({ held: false });
      });
    });
    io.on('grantsChanged', () => {
      commands.heardGrantsChanged().catch((error: unknown) => {
        app.log.error({ err: error }, 'robot: reading the linked cTrader accounts again failed');
      });
    });
    commands.connect({
      ask: (command, waitMs = accountCommandTimeoutMs + 1_000) =>
        new Promise((resolve) => {
          // The adapter answers after its own timeout; it never answers when Redis refuses the
          // count of processes, hence this guard (shorter for a read that has a fallback).
          const guard = setTimeout(() => {
            resolve([]);
          }, waitMs);
          // Replies that came in time count even when another process did not answer.
          io.serverSideEmit('accountCommand', command, (_error, replies) => {
            clearTimeout(guard);
            resolve(replies);
          });
        }),
      grantsChanged: () => {
        io.serverSideEmit('grantsChanged');
      },
    });
  }
  const revoke = (revoked: SessionsRevoked) => {
    revocations.record(revoked);
    // Sent before the disconnection, on the same Redis connection: other processes learn of
    // it before they could join a socket that the disconnection would miss.
    if (scaled) io.serverSideEmit('sessionsRevoked', revoked);
  };

  io.use((socket: RealtimeSocket, next) => {
    const { auth, headers } = socket.handshake;
    const language = handshakeLanguage(auth, headers);
    const token = handshakeToken(auth, headers);
    if (!token) {
      next(refusal(language, 'UNAUTHENTICATED'));
      return;
    }
    const startedAt = revocations.stamp();
    dependencies.auth.authenticate(token).then(
      (session) => {
        const revoked =
          session &&
          revocations.revokedSince(startedAt, {
            sessionId: session.sessionId,
            userId: session.user.id,
          });
        if (!session || revoked) {
          next(refusal(language, 'UNAUTHENTICATED'));
          return;
        }
        socket.data.userId = session.user.id;
        socket.data.sessionId = session.sessionId;
        next();
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'real-time authentication failed');
        next(refusal(language, 'SERVICE_UNAVAILABLE'));
      },
    );
  });

  io.on('connection', (socket: RealtimeSocket) => {
    socketConnections.inc();
    socket.on('disconnect', () => {
      socketConnections.dec();
    });
    const { userId } = socket.data;
    const first = !hasLocalSocket(io, userId);
    void socket.join([userRoom(userId), sessionRoom(socket.data.sessionId)]);
    if (presence) {
      if (first) presence.announce([userId]);
      // On `disconnect` the socket has left its rooms: no room left means no socket here.
      socket.on('disconnect', () => {
        if (!hasLocalSocket(io, userId)) presence.leave([userId]);
      });
    }
    // After joining and announcing: the holder, asked over the same Redis connection, knows
    // the user listens by the time it answers, so every later change reaches the socket.
    const current = dependencies.currentInfo;
    if (current) {
      sendCurrent(socket, () => current(userId)).catch((error: unknown) => {
        app.log.error(
          { err: error, userId },
          'real-time: reading the figures for a new socket failed',
        );
      });
    }
  });

  // WebSocket connections, to cut those whose peer never answers the closing handshake.
  const upgraded = new Set<Duplex>();
  app.server.on('upgrade', (request: IncomingMessage, socket: Duplex) => {
    if (!request.url?.startsWith(`${realtimePath}/`)) return;
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
  });

  // Open sockets hold the HTTP server open: they go before Fastify closes it. Closing the
  // transports (not disconnecting the sockets) lets clients reconnect to the next process.
  // A vanished peer would keep its WebSocket in the closing handshake for 30 s: cut it.
  app.addHook('preClose', async () => {
    // The others stop counting this process's users now rather than when it falls silent.
    presence?.stop();
    io.engine.close();
    if (upgraded.size === 0) return;
    setTimeout(() => {
      for (const socket of upgraded) socket.destroy();
    }, closingHandshakeMs).unref();
  });
  app.addHook('onClose', async () => {
    await io.close();
    await redis?.close();
  });

  const publisher: RealtimePublisher = {
    toUser(userId, info) {
      // Scaled mode (issue 40): when the user's only known sockets are here, Redis does not
      // carry it. A socket that joined elsewhere and was not announced here yet misses nothing
      // by it: `hasListeners` counted it out too, and its first event is the account as the
      // holder answers after hearing the announcement (`currentInfo`). With no socket known
      // anywhere, the caller chose to send: it goes to every process.
      const onlyHere = presence && !presence.elsewhere(userId) && hasLocalSocket(io, userId);
      (onlyHere ? io.local : io).to(userRoom(userId)).emit(realtimeEventName, { info });
    },
    hasListeners(userId) {
      return hasLocalSocket(io, userId) || (presence?.elsewhere(userId) ?? false);
    },
    disconnectSession(sessionId) {
      revoke({ sessionId });
      io.in(sessionRoom(sessionId)).disconnectSockets(true);
    },
    disconnectUser(userId) {
      revoke({ userId });
      io.in(userRoom(userId)).disconnectSockets(true);
    },
  };
  app.decorate('realtime', publisher);
  return {
    publisher,
    presenceHeartbeat: presence && {
      everyMs: presenceTimings.refreshMs,
      run: presence.refresh,
    },
  };
}

/**
 * Sends a socket that just connected the account as it is now. An update that reached it while
 * this was read is newer: the values it carried are left out.
 */
async function sendCurrent(
  socket: RealtimeSocket,
  read: () => Promise<RealtimeInfo | undefined>,
): Promise<void> {
  const overtaken = new Set<string>();
  const listener = (_event: string, payload: unknown) => {
    const info = (payload as Partial<RealtimeEvent> | undefined)?.info;
    if (info && typeof info === 'object') for (const key of Object.keys(info)) overtaken.add(key);
  };
  socket.onAnyOutgoing(listener);
  let info: RealtimeInfo | undefined;
  try {
    info = await read();
  } finally {
    socket.offAnyOutgoing(listener);
  }
  if (!info || !socket.connected) return;
  const fresh = Object.fromEntries(
    Object.entries(info).filter(([key]) => !overtaken.has(key)),
  ) as RealtimeInfo;
  if (Object.keys(fresh).length > 0) socket.emit(realtimeEventName, { info: fresh });
}

function hasLocalSocket(io: RealtimeServer, userId: string): boolean {
  return io.of('/').adapter.rooms.has(userRoom(userId));
}

/** The users of this process's sockets, from its rooms. */
function localUsers(io: RealtimeServer): string[] {
  const prefix = userRoom('');
  const users: string[] = [];
  for (const room of io.of('/').adapter.rooms.keys()) {
    if (room.startsWith(prefix)) users.push(room.slice(prefix.length));
  }
  return users;
}

/**
 * Presence across processes (scaled mode, `presenceTimings`), over the Socket.IO adapter's own
 * server-side messages on Redis: no keys to expire or clean up. While Redis is down the
 * messages are lost, announcements run out, and only local sockets count; the refresh after
 * Redis returns restores the others within `refreshMs`.
 */
function scaledPresence(io: RealtimeServer, timings: typeof presenceTimings) {
  const me = randomUUID();
  const remote = new RemotePresence(timings.ttlMs);
  const send = (event: 'present' | 'absent', userIds: string[]) => {
    for (let at = 0; at < userIds.length; at += presenceChunk) {
      io.serverSideEmit(event, me, userIds.slice(at, at + presenceChunk));
    }
  };
  const announceAll = () => {
    send('present', localUsers(io));
  };
  io.on('present', (from, userIds) => {
    remote.present(from, userIds);
  });
  io.on('absent', (from, userIds) => {
    remote.absent(from, userIds);
  });
  io.on('presenceAsked', announceAll);
  io.serverSideEmit('presenceAsked');
  // Once this process has said it leaves (preClose), a heartbeat still due before the jobs stop
  // (onClose) must not announce its users again.
  let stopped = false;
  return {
    /** Every `refreshMs`, as a job (`RealtimeGateway.presenceHeartbeat`). */
    refresh: () => {
      if (stopped) return;
      remote.prune();
      announceAll();
    },
    announce: (userIds: string[]) => {
      send('present', userIds);
    },
    leave: (userIds: string[]) => {
      send('absent', userIds);
    },
    elsewhere: (userId: string) => remote.has(userId),
    stop: () => {
      stopped = true;
      send('absent', localUsers(io));
    },
  };
}

/** Logout closes that session's sockets; a password change every socket of the user. */
export function closeRevokedSockets(publisher: RealtimePublisher, revoked: SessionsRevoked): void {
  if ('sessionId' in revoked) publisher.disconnectSession(revoked.sessionId);
  else publisher.disconnectUser(revoked.userId);
}
