import type { MessagePort } from 'node:worker_threads';
import { types, type PGlite, type Results, type Transaction } from '@electric-sql/pglite';

/**
 * PGlite is one WASM database in one thread: another thread cannot open it. The robot's worker
 * (decision 046) reaches it through a MessagePort instead: `servePglite` answers on the thread
 * that owns the database, and `PgliteLink` stands in for the PGlite client on the other side,
 * with the subset drizzle's PGlite driver calls (`query`, `transaction`). A transaction holds
 * PGlite's exclusive lock from BEGIN to COMMIT, so queries from either thread wait for it, as
 * they do in one thread.
 */

type RowMode = 'array' | 'object';

type LinkRequest =
  | { id: number; op: 'query'; sql: string; params: unknown[]; rowMode: RowMode; tx?: number }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean };

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;
type LinkRequestBody = WithoutId<LinkRequest>;

type LinkResponse =
  { id: number; ok: true; value: unknown } | { id: number; ok: false; error: LinkedError };

/** An error as it crosses the port: its message and PostgreSQL's fields (code, detail, ...). */
interface LinkedError {
  message: string;
  fields: Record<string, unknown>;
}

/** The parsers drizzle's PGlite driver passes: date and time types stay text (drizzle maps them). */
const asText = (value: string) => value;
const drizzleParsers = {
  [types.TIMESTAMP]: asText,
  [types.TIMESTAMPTZ]: asText,
  [types.INTERVAL]: asText,
  [types.DATE]: asText,
  1231: asText,
  1115: asText,
  1185: asText,
  1187: asText,
  1182: asText,
};

interface OpenTransaction {
  readonly tx: Transaction;
  /** Ends the transaction: COMMIT when true, ROLLBACK otherwise. */
  readonly finish: (commit: boolean) => void;
  /** Settles once PGlite has committed or rolled back. */
  readonly done: Promise<unknown>;
}

function linkedError(error: unknown): LinkedError {
  if (!(error instanceof Error)) return { message: String(error), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) {
      fields[key] = value;
    }
  }
  return { message: error.message, fields };
}

/**
 * Answers a PgliteLink's requests on `port` with `client`. Transactions the other side left open
 * when its port closes (a worker that died) are rolled back.
 */
export function servePglite(client: PGlite, port: MessagePort): void {
  const open = new Map<number, OpenTransaction>();
  let nextTransaction = 1;

  const begin = () =>
    new Promise<number>((resolve, reject) => {
      const id = nextTransaction++;
      const done = client.transaction(async (tx) => {
        const commit = await new Promise<boolean>((finish) => {
          open.set(id, { tx, finish, done });
          resolve(id);
        });
        if (!commit) await tx.rollback();
      });
      // A BEGIN that failed never reached the callback.
      done.catch(reject);
    });

  const handle = async (request: LinkRequest): Promise<unknown> => {
    switch (request.op) {
      case 'query': {
        const target = request.tx === undefined ? client : open.get(request.tx)?.tx;
        if (!target) throw new Error('the transaction is closed');
        const result: Results = await target.query(request.sql, request.params, {
          rowMode: request.rowMode,
          parsers: drizzleParsers,
        });
        return { rows: result.rows, affectedRows: result.affectedRows, fields: result.fields };
      }
      case 'begin':
        return begin();
      case 'end': {
        const transaction = open.get(request.tx);
        if (!transaction) throw new Error('the transaction is closed');
        open.delete(request.tx);
        transaction.finish(request.commit);
        await transaction.done;
        return undefined;
      }
    }
  };

  port.on('message', (request: LinkRequest) => {
    handle(request).then(
      (value) => {
        port.postMessage({ id: request.id, ok: true, value } satisfies LinkResponse);
      },
      (error: unknown) => {
        port.postMessage({
          id: request.id,
          ok: false,
          error: linkedError(error),
        } satisfies LinkResponse);
      },
    );
  });
  port.on('close', () => {
    for (const transaction of open.values()) transaction.finish(false);
    open.clear();
  });
  // The thread that owns the database lives for its own reasons, not for this port.
  port.unref();
}

interface QueryOptions {
  rowMode?: RowMode;
}

/** The client side: what drizzle's PGlite driver needs of a PGlite client, over a port. */
export class PgliteLink {
  private nextId = 1;
  private readonly waiting = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();

  constructor(private readonly port: MessagePort) {
    port.on('message', (response: LinkResponse) => {
      const waiter = this.waiting.get(response.id);
      if (!waiter) return;
      this.waiting.delete(response.id);
      if (response.ok) waiter.resolve(response.value);
      else {
        waiter.reject(Object.assign(new Error(response.error.message), response.error.fields));
      }
    });
    port.on('close', () => {
      for (const waiter of this.waiting.values()) {
        waiter.reject(new Error('the database link closed'));
      }
      this.waiting.clear();
    });
  }

  private request(request: LinkRequestBody): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.port.postMessage({ ...request, id });
    });
  }

  query(sql: string, params: unknown[] = [], options: QueryOptions = {}, tx?: number) {
    return this.request({
      op: 'query',
      sql,
      params,
      rowMode: options.rowMode ?? 'object',
      ...(tx === undefined ? {} : { tx }),
    }) as Promise<Results>;
  }

  async transaction<T>(callback: (tx: { query: PgliteLink['query'] }) => Promise<T>): Promise<T> {
    const tx = (await this.request({ op: 'begin' })) as number;
    let result: T;
    try {
      result = await callback({
        query: (sql, params, options) => this.query(sql, params, options, tx),
      });
    } catch (error) {
      // A rollback that fails leaves nothing to undo: the other side rolls back on close.
      await this.request({ op: 'end', tx, commit: false }).catch(() => undefined);
      throw error;
    }
    await this.request({ op: 'end', tx, commit: true });
    return result;
  }

  close(): void {
    this.port.close();
  }
}
