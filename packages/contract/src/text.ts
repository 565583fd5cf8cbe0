import { z } from './zod';

/**
 * Control characters (NUL, ESC, DEL, the C1 range, and tab and line breaks on one-line
 * fields) and lone UTF-16 surrogates. No form has a use for them, PostgreSQL refuses NUL in
 * text, and they hide things in logs and mails (docs/decisions/052-rate-limits-and-input-hygiene.md).
 */
const oneLineForbidden = /[\p{Cc}\p{Cs}]/u;
const multilineForbidden = /[^\P{Cc}\t\n\r]|\p{Cs}/u;

export interface TextOptions {
  /** The message when the value is missing or not a string. */
  error?: string;
  /** Allows tab, CR and LF (a free-text box); every other control character is still refused. */
  multiline?: boolean;
}

/**
 * Every text field of a request starts here: a string without control characters. A value
 * that has one is refused with `validation.invalidCharacters` (422) before any other check
 * runs, so a NUL byte never reaches a query. Chain trim/min/max/regex after it as usual.
 */
export function text(options: TextOptions = {}) {
  const forbidden = options.multiline ? multilineForbidden : oneLineForbidden;
  return z
    .string(options.error === undefined ? undefined : { error: options.error })
    .refine((value) => !forbidden.test(value), {
      error: 'validation.invalidCharacters',
      abort: true,
    });
}
