import type { TestProject } from 'vitest/node';
import { startServer } from './support/server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    /** The E2E server's DATA_DIR: e-mail lands in its mail/ folder as .eml files. */
    dataDir: string;
  }
}

/** One real server for the whole E2E run, built from this checkout. */
export default async function setup(project: TestProject) {
  const server = await startServer();
  project.provide('baseURL', server.url);
  project.provide('dataDir', server.dataDir);
  return async () => {
    await server.stop();
  };
}
