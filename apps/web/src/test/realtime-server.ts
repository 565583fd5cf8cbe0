import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { realtimeEventName, realtimePath, type RealtimeInfo } from '@tradebot/contract';
import { Server, type Socket } from 'socket.io';

/**
 * A real Socket.IO server on the channel's path, standing in for the API server's gateway
 * in the web app's tests: it accepts the tokens it is told about and records connections.
 */
export interface TestRealtimeServer {
  url: string;
  io: Server;
  /** Sockets connected now, by token. */
  sockets: Map<string, Socket>;
  /** Connection attempts refused so far. */
  readonly refusals: number;
  /** How many connections each token opened, over the server's life. */
  connections: Map<string, number>;
  /** Resolves with the next accepted socket of the token (or the one connected now). */
  connected(token: string): Promise<Socket>;
  emitTo(token: string, info: unknown): void;
  close(): Promise<void>;
}

export async function startRealtimeServer(acceptedTokens: string[]): Promise<TestRealtimeServer> {
  const http = createServer();
  const io = new Server(http, { path: realtimePath });
  const sockets = new Map<string, Socket>();
  const connections = new Map<string, number>();
  const waiting = new Map<string, ((socket: Socket) => void)[]>();
  let refusals = 0;
  io.use((socket, next) => {
    const token: unknown = (socket.handshake.auth as { token?: unknown }).token;
    if (typeof token === 'string' && acceptedTokens.includes(token)) {
      next();
      return;
    }
    refusals += 1;
    next(Object.assign(new Error('Tu sesión no es válida'), { data: { code: 'UNAUTHENTICATED' } }));
  });
  io.on('connection', (socket) => {
    const token = (socket.handshake.auth as { token: string }).token;
    sockets.set(token, socket);
    connections.set(token, (connections.get(token) ?? 0) + 1);
    socket.on('disconnect', () => {
      if (sockets.get(token) === socket) sockets.delete(token);
    });
    for (const wake of waiting.get(token)?.splice(0) ?? []) wake(socket);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    io,
    sockets,
    connections,
    get refusals() {
      return refusals;
    },
    connected(token) {
      const socket = sockets.get(token);
      if (socket) return Promise.resolve(socket);
      return new Promise((resolve) => {
        waiting.set(token, [...(waiting.get(token) ?? []), resolve]);
      });
    },
    emitTo(token, info) {
      sockets.get(token)?.emit(realtimeEventName, { info });
    },
    async close() {
      await io.close();
    },
  };
}

/** Polls until `check` holds (events cross a real socket), failing after two seconds. */
export async function eventually(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 2000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A valid `info`: an account and one open operation. */
export const sampleInfo = {
  account: {
    balance: 1000,
    freeMargin: 900,
    equity: 1010,
    earnings: 10,
    deposits: 1000,
    usedMargin: 100,
    exposure: 0.099,
    exposureCap: 0.5,
  },
  trades: [
    {
      Amount: 0.1,
      CloseTime: null,
      Cmd: 0,
      Icon1: 'eur',
      Icon2: 'usd',
      OpenTime: '2026-11-21T12:00:00.000Z',
      OutputName: 'EUR/USD',
      Profit: 10,
      id: 'p1',
      symbol: 'EURUSD',
      category: 'forex',
      side: 'buy',
      units: 10_000,
      openPrice: 1.08,
      closePrice: null,
      takeProfit: 1.09,
      stopLoss: 1.075,
      status: 'open',
      closeReason: null,
      probability: 0.6,
      breakEvenProbability: 0.34,
      margin: 100,
      value: null,
      currency: 'USD',
    },
  ],
} satisfies RealtimeInfo;
