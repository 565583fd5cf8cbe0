import {
  realtimeEventName,
  realtimePath,
  type RealtimeEvent,
  type RealtimeInfo,
} from '@tradebot/contract';
import type { FastifyInstance } from 'fastify';
import { io, type Socket } from 'socket.io-client';

export interface Refusal {
  message: string;
  code: string | undefined;
}

export interface TestClient {
  socket: Socket;
  /** Every `trading-data` event received so far, in order. */
  events: RealtimeEvent[];
  /** Resolves with the event received at `index` (0: the first), waiting for it if needed. */
  eventAt(index: number): Promise<RealtimeEvent>;
  /** Resolves with the reason the socket disconnected. */
  disconnected: Promise<string>;
}

/** The app on a real port, so a real Socket.IO client connects to it. */
export async function listen(app: FastifyInstance): Promise<string> {
  return app.listen({ host: '127.0.0.1', port: 0 });
}

function open(address: string, options: Parameters<typeof io>[1]): Socket {
  return io(address, {
    path: realtimePath,
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    ...options,
  });
}

function withTimeout<T>(promise: Promise<T>, what: string, ms = 5000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`timed out waiting for ${what}`));
    }, ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** Connects and resolves once the server accepted the socket; rejects with its refusal. */
export async function connectClient(
  address: string,
  options: Parameters<typeof io>[1] = {},
): Promise<TestClient> {
  const socket = open(address, options);
  const events: RealtimeEvent[] = [];
  const waiting: (() => void)[] = [];
  socket.on(realtimeEventName, (event: RealtimeEvent) => {
    events.push(event);
    for (const wake of waiting.splice(0)) wake();
  });
  const disconnected = new Promise<string>((resolve) => {
    socket.once('disconnect', (reason) => {
      resolve(reason);
    });
  });
  await withTimeout(
    new Promise<void>((resolve, reject) => {
      socket.once('connect', () => {
        resolve();
      });
      socket.once('connect_error', (error: Error & { data?: { code?: string } }) => {
        socket.close();
        reject(Object.assign(new Error(error.message), { code: error.data?.code }));
      });
    }),
    'the connection',
  );
  return {
    socket,
    events,
    disconnected,
    eventAt(index) {
      return withTimeout(
        new Promise<RealtimeEvent>((resolve) => {
          const check = () => {
            const event = events[index];
            if (event) resolve(event);
            else waiting.push(check);
          };
          check();
        }),
        'an event',
      );
    },
  };
}

/** The refusal a connection attempt ends with (fails the test if it is accepted). */
export async function refusalOf(
  address: string,
  options: Parameters<typeof io>[1] = {},
): Promise<Refusal> {
  try {
    const client = await connectClient(address, options);
    client.socket.close();
  } catch (error) {
    const refused = error as Error & { code?: string };
    return { message: refused.message, code: refused.code };
  }
  throw new Error('the connection was accepted');
}

/** Resolves after `ms`: long enough for an event that should not come to have arrived. */
export function settle(ms = 150): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function withinTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  return withTimeout(promise, what);
}

/** A small, valid `info`: an account whose figures are all `balance`. */
export function accountInfo(balance: number): RealtimeInfo {
  return {
    account: {
      balance,
      freeMargin: balance,
      equity: balance,
      earnings: 0,
      deposits: balance,
      usedMargin: 0,
      exposure: 0,
      exposureCap: 0.5,
    },
  };
}
