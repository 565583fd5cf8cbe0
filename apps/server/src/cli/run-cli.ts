/**
 * What the operator's command-line tools (admin:create, db:backup, db:restore) share: relative
 * paths mean where the command was typed, the configuration is the server's, an error the
 * operator can act on is printed as its one-line message (anything else as "<tool> failed: …",
 * never a stack), and the tool's answer is the exit code.
 */
import { ConfigError, loadConfig, type Config } from '../config';
import { StartupError } from '../startup-error';

/** The server's configuration, read from where the command was typed. */
export function cliConfig(): Config {
  // npm runs workspace scripts in the workspace: a relative DATA_DIR means where it was typed.
  if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
  return loadConfig();
}

/**
 * Runs `main` as the tool `name`. Errors of the kinds in `plain` (besides configuration and
 * start-up errors) are the operator's to fix, and their message says how.
 */
export function runCli(
  name: string,
  main: () => Promise<number>,
  plain: readonly (abstract new (...args: never[]) => Error)[] = [],
): void {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      const kinds = [ConfigError, StartupError, ...plain];
      if (kinds.some((kind) => error instanceof kind)) console.error((error as Error).message);
      else console.error(`${name} failed:`, error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
