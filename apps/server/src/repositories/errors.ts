import { isUniqueViolation } from '../db/errors';

/**
 * A write refused because it would repeat a unique key (another request got there first): the
 * repositories' word for PostgreSQL's 23505, so services decide what it means to the user
 * without knowing the database (decision 090).
 */
export class DuplicateKey extends Error {
  constructor(options?: ErrorOptions) {
    super('a unique key is taken', options);
    this.name = 'DuplicateKey';
  }
}

/** Runs a write; a unique violation from it (or its transaction) becomes `DuplicateKey`. */
export async function refusingDuplicates<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw new DuplicateKey({ cause: error });
    throw error;
  }
}
