import type { MessageKey } from '@tradebot/contract';

export interface DomainErrorDetails {
  /** The form field at fault: the message is then also that field's error. */
  readonly field?: string;
  /** Placeholders of the catalogue message. */
  readonly values?: Readonly<Record<string, string | number>>;
}

/**
 * A refusal a service raises on purpose (STYLE.md, principle 12): each capability declares its
 * own classes (`PromoCodeInvalid`, `RobotUnavailable`, …) in its `*.errors.ts`. It carries a
 * catalogue key, never finished text nor an HTTP status: `http/errors.ts` alone maps each class
 * to a status and a code, and renders the message in the request's language.
 */
export abstract class DomainError extends Error {
  readonly field: string | undefined;
  readonly values: Readonly<Record<string, string | number>> | undefined;

  /** `key` undefined: the answer carries its code's generic message (errors.NOT_FOUND, …). */
  constructor(
    readonly key: MessageKey | undefined,
    details: DomainErrorDetails = {},
  ) {
    super(key ?? new.target.name);
    this.name = new.target.name;
    this.field = details.field;
    this.values = details.values;
  }
}

/** A domain error's class, as the HTTP layer's table names it. */
export type DomainErrorClass = abstract new (...args: never[]) => DomainError;
