/**
 * Something that stops the process at start (or a command line tool) and that the operator must
 * fix: its message is one line naming the setting or file and what to do (decision 065). The
 * entry points print the message alone, without a stack.
 */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}
