import { issueMessageText } from '@tradebot/contract/constants';
import { toNestErrors } from '@hookform/resolvers';
import { useState } from 'react';
import {
  useForm,
  type DefaultValues,
  type FieldError,
  type FieldValues,
  type Path,
  type Resolver,
  type UseFormSetError,
} from 'react-hook-form';
import type { z } from 'zod';
import { useAppStore } from '../stores/app';
import { ApiRequestError } from './api-client';
import { failureMessage, type FieldError as ShownFailure } from './form-errors';

/**
 * react-hook-form's resolver for a contract schema: the form's values (turned into the
 * request by `toRequest` when the form holds them differently) are checked as the server
 * checks them, and each field's first issue is the contract's catalogue message
 * (`issueMessageText`, the mapping the server's 422 answers use), read back by `shownError`.
 */
export function contractResolver<Values extends FieldValues, Request>(
  schema: z.ZodType<Request>,
  toRequest: (values: Values) => unknown = (values) => values,
): Resolver<Values, unknown, Request> {
  return (values, _context, options) => {
    const result = schema.safeParse(toRequest(values), { reportInput: true });
    if (result.success) return { values: result.data, errors: {} };
    const errors: Record<string, FieldError> = {};
    for (const issue of result.error.issues) {
      const field = issue.path.map(String).join('.');
      errors[field] ??= { type: issue.code, message: issueMessageText(issue) };
    }
    return { values: {}, errors: toNestErrors<Values>(errors, options) };
  };
}

/**
 * A contract schema, or the import that brings it: a page whose form is checked only when it is
 * sent (every form here checks on submit) need not load zod, and build its schemas, to show
 * and hydrate (docs/benchmarks.md, issue 39: /login).
 */
export type SchemaSource<Request> = z.ZodType<Request> | (() => Promise<z.ZodType<Request>>);

/**
 * A schema still to be imported: `prepare` starts the import (the form's first focus calls it,
 * so the schema is there by the time the form is sent), `resolver` is `contractResolver` over
 * it, waiting for the import when the form is sent before.
 */
export function lazySchema<Request>(load: () => Promise<z.ZodType<Request>>) {
  let loaded: Promise<z.ZodType<Request>> | undefined;
  const schema = () => (loaded ??= load());
  return {
    prepare: () => {
      // A failed import is tried again when the form is sent, where its error shows.
      schema().catch(() => {
        loaded = undefined;
      });
    },
    resolver:
      <Values extends FieldValues>(
        toRequest?: (values: Values) => unknown,
      ): Resolver<Values, unknown, Request> =>
      async (values, context, options) =>
        contractResolver<Values, Request>(await schema(), toRequest)(values, context, options),
  };
}

/**
 * Puts the server's field errors (already in the user's language) under their fields; true
 * when there was at least one, so the caller says anything else elsewhere.
 */
export function placeServerErrors<Values extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<Values>,
  fields?: readonly Path<Values>[],
): boolean {
  if (!(error instanceof ApiRequestError)) return false;
  let placed = false;
  for (const [field, messages] of Object.entries(error.fieldErrors)) {
    const message = messages[0];
    if (!message || (fields && !fields.includes(field as Path<Values>))) continue;
    setError(field as Path<Values>, { type: 'server', message });
    placed = true;
  }
  return placed;
}

const noPreparation = () => undefined;

/**
 * A form on react-hook-form with a contract schema, sent by `submitWith(send)`: checked first
 * (the first field in error takes the focus), then sent; the server's field errors go under
 * their fields, anything else through the overlay (the server's localized message, or
 * `failureKey` when it could not be reached), or, with `inline`, as `failure` for the form to
 * show in place (a wrong password is not worth a dialog to dismiss). `sending` drives the
 * submit button's spinner, which keeps it from being pressed twice.
 */
export function useContractForm<Values extends FieldValues, Request>({
  schema,
  defaultValues,
  toRequest,
  failureKey,
  inline = false,
}: {
  /** The schema, or its import: then the form calls `prepare` on its first focus. */
  schema: SchemaSource<Request>;
  /** Every field's first value (the form's own shape, which `toRequest` turns into the request). */
  defaultValues: Values;
  toRequest?: (values: Values) => unknown;
  failureKey: string;
  inline?: boolean;
}) {
  const showMessage = useAppStore((state) => state.showMessage);
  const [failure, setFailure] = useState<ShownFailure | null>(null);
  // An imported schema is kept for the form's life; the resolver follows `toRequest`.
  const [lazy] = useState(() => (typeof schema === 'function' ? lazySchema(schema) : null));
  const form = useForm<Values, unknown, Request>({
    resolver:
      typeof schema === 'function'
        ? (lazy ?? lazySchema(schema)).resolver(toRequest)
        : contractResolver(schema, toRequest),
    defaultValues: defaultValues as DefaultValues<Values>,
  });

  const submitWith = (
    send: (data: Request) => Promise<void>,
    /** A reason to hold the form back that the schema cannot see (a promo code refused). */
    heldBack?: () => boolean | Promise<boolean>,
  ) =>
    form.handleSubmit(async (data) => {
      if (await heldBack?.()) return;
      setFailure(null);
      try {
        await send(data);
      } catch (error) {
        if (placeServerErrors(error, form.setError)) return;
        const message = failureMessage(error, failureKey);
        if (inline) setFailure(message);
        else showMessage(message);
      }
    });

  return {
    ...form,
    failure,
    sending: form.formState.isSubmitting,
    submitWith,
    prepare: lazy?.prepare ?? noPreparation,
  };
}
