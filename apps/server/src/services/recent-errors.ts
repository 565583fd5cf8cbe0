/** One error line this process logged, for the console's system page (decision 160). */
export interface RecentError {
  readonly at: string;
  readonly message: string;
}

/** How many of its last error lines a process keeps. */
export const recentErrorsKept = 5;

/**
 * The last error lines of this process (level error and fatal), newest first: the message only,
 * a fixed text of ours (decision 051 keeps data out of messages; the fields are not kept).
 */
export class RecentErrors {
  private readonly lines: RecentError[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  add(message: string): void {
    this.lines.unshift({ at: new Date(this.now()).toISOString(), message: message.slice(0, 300) });
    this.lines.length = Math.min(this.lines.length, recentErrorsKept);
  }

  list(): RecentError[] {
    return [...this.lines];
  }
}

/** The message of a pino call's arguments: `(message)` or `(fields, message)`. */
export function messageOfLogCall(args: readonly unknown[]): string {
  const [first, second] = args;
  if (typeof first === 'string') return first;
  if (typeof second === 'string') return second;
  if (first instanceof Error) return first.message;
  return '';
}
