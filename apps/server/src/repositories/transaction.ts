import type { Db } from '../db/database';

/**
 * A transaction, as services hand it from one repository to the next: they pass it through and
 * never query it themselves.
 */
export type Tx = Db;

/** Runs `work` in one transaction: all of its writes are stored, or none. */
export type Transact = <T>(work: (tx: Tx) => Promise<T>) => Promise<T>;
