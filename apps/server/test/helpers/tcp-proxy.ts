import net from 'node:net';

/**
 * A loopback TCP proxy a test controls (issue 21, proofs 5 and 6): it stands between a process
 * and PostgreSQL or Redis, so a test can cut one process off, or make the server seem to
 * restart, without touching the machine's real servers (others use them).
 *
 * - `pass`: bytes flow both ways.
 * - `hold`: a network partition. Connections stay open, bytes sent either way are held back
 *   (queries hang, as they do when packets are lost) and delivered when the proxy passes again,
 *   as TCP delivers its retransmissions once a network heals: a process's writes from during
 *   the partition arrive late.
 * - `refuse`: a server restarting. Every open connection is dropped and new ones are refused
 *   until the proxy passes again.
 */
export type ProxyMode = 'pass' | 'hold' | 'refuse';

export interface TcpProxy {
  /** The port to connect to instead of the target's. */
  readonly port: number;
  readonly mode: ProxyMode;
  /** Connections accepted so far (a reconnecting client makes new ones). */
  readonly accepted: number;
  pass(): void;
  hold(): void;
  /**
   * Passes until a client sends bytes containing `text` (a statement the test waits for), then
   * holds from that very message on: the partition starts with that write in flight. Resolves
   * with the wall time it began.
   */
  holdAt(text: string): Promise<number>;
  refuse(): void;
  /** The URL with its host and port replaced by the proxy's. */
  url(target: string): string;
  close(): Promise<void>;
}

interface Pair {
  readonly client: net.Socket;
  readonly server: net.Socket;
  /** Bytes held back while the mode is `hold`, each with the socket to write it to. */
  readonly held: { to: net.Socket; chunk: Buffer }[];
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: ProxyMode = 'pass';
  let accepted = 0;
  const pairs = new Set<Pair>();
  let trigger: { text: string; began: (at: number) => void } | undefined;

  const drop = (pair: Pair) => {
    pairs.delete(pair);
    pair.client.destroy();
    pair.server.destroy();
  };

  const server = net.createServer((client) => {
    if (mode === 'refuse') {
      client.destroy();
      return;
    }
    accepted++;
    const upstream = net.connect(target.port, target.host);
    const pair: Pair = { client, server: upstream, held: [] };
    pairs.add(pair);
    const relay = (from: net.Socket, to: net.Socket) => {
      from.on('data', (chunk: Buffer) => {
        if (trigger && from === client && chunk.includes(trigger.text)) {
          mode = 'hold';
          trigger.began(Date.now());
          trigger = undefined;
        }
        if (mode === 'hold') pair.held.push({ to, chunk });
        else if (!to.destroyed) to.write(chunk);
      });
      from.on('error', () => {
        drop(pair);
      });
      from.on('close', () => {
        // A close seen during a partition is held too: the other side learns of it at the heal.
        if (mode === 'hold') return;
        drop(pair);
      });
    };
    relay(client, upstream);
    relay(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy without a port');

  return {
    port: address.port,
    get mode() {
      return mode;
    },
    get accepted() {
      return accepted;
    },
    pass() {
      mode = 'pass';
      for (const pair of [...pairs]) {
        if (pair.client.destroyed || pair.server.destroyed) {
          drop(pair);
          continue;
        }
        for (const { to, chunk } of pair.held.splice(0)) to.write(chunk);
      }
    },
    hold() {
      mode = 'hold';
    },
    holdAt(text: string) {
      return new Promise<number>((began) => {
        trigger = { text, began };
      });
    },
    refuse() {
      mode = 'refuse';
      for (const pair of [...pairs]) drop(pair);
    },
    url(targetUrl: string) {
      const url = new URL(targetUrl);
      url.hostname = '127.0.0.1';
      url.port = String(address.port);
      return url.toString();
    },
    async close() {
      for (const pair of [...pairs]) drop(pair);
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
    },
  };
}
