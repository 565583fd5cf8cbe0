import { isMessageKey, type MessageKey } from './messages';

/**
 * A validation issue as zod reports it, in the fields the message depends on (structural, so
 * this file needs no zod: the web app's shell imports it through `./constants`).
 */
export interface ValidationIssue {
  readonly code: string;
  readonly message: string;
  readonly input?: unknown;
  readonly origin?: string;
  readonly format?: string;
  readonly minimum?: unknown;
  readonly maximum?: unknown;
  readonly params?: { readonly minimum?: unknown; readonly maximum?: unknown };
  readonly errors?: readonly (readonly ValidationIssue[])[];
}

export interface IssueMessage {
  key: MessageKey;
  /** The length bound the message speaks of ("Mínimo {{count}} caracteres"). */
  count?: number;
}

function boundOf(issue: ValidationIssue): number | undefined {
  const bound =
    issue.minimum ?? issue.maximum ?? issue.params?.minimum ?? issue.params?.maximum ?? undefined;
  return typeof bound === 'number' || typeof bound === 'bigint' ? Number(bound) : undefined;
}

/**
 * The catalogue message of one zod issue (docs/decisions/002's mapping): the schema's own key
 * when it names one, otherwise one chosen by the issue's kind. The server's 422 answers and
 * the web app's forms both read it, so a field says the same thing before and after sending.
 */
export function issueMessage(issue: ValidationIssue): IssueMessage {
  const count = boundOf(issue);
  if (isMessageKey(issue.message)) {
    return count === undefined ? { key: issue.message } : { key: issue.message, count };
  }
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined || issue.input === null
        ? { key: 'validation.required' }
        : { key: 'validation.invalidValue' };
    case 'too_small':
      if (issue.origin === 'string') {
        return (count ?? 0) <= 1
          ? { key: 'validation.required' }
          : { key: 'validation.min', count: count ?? 0 };
      }
      return { key: 'validation.invalidValue' };
    case 'too_big':
      return issue.origin === 'string'
        ? { key: 'validation.max', count: count ?? 0 }
        : { key: 'validation.invalidValue' };
    case 'invalid_format':
      return issue.format === 'email'
        ? { key: 'validation.email' }
        : { key: 'validation.invalidValue' };
    case 'unrecognized_keys':
      return { key: 'validation.unknownField' };
    case 'invalid_union': {
      const keyed = issue.errors?.flat().find((nested) => isMessageKey(nested.message));
      return keyed ? issueMessage(keyed) : { key: 'validation.invalidValue' };
    }
    default:
      return { key: 'validation.invalidValue' };
  }
}

/**
 * One issue's catalogue message as a single string ("validation.min|8"), for a form library
 * whose errors carry only a string (react-hook-form's `message`); `readIssueMessage` turns it
 * back. Both ends live here so the web app's forms say exactly what `issueMessage` says.
 */
export function issueMessageText(issue: ValidationIssue): string {
  const { key, count } = issueMessage(issue);
  return count === undefined ? key : `${key}|${String(count)}`;
}

/** The message `issueMessageText` wrote; anything else is the generic "invalid value". */
export function readIssueMessage(text: string): IssueMessage {
  const [key = '', count, ...rest] = text.split('|');
  if (!isMessageKey(key) || rest.length > 0) return { key: 'validation.invalidValue' };
  if (count === undefined) return { key };
  const bound = Number(count);
  return Number.isInteger(bound) ? { key, count: bound } : { key: 'validation.invalidValue' };
}
