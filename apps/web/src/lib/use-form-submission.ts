import { useState } from 'react';
import type { z } from 'zod';
import { useAppStore } from '../stores/app';
import {
  failureMessage,
  fieldErrorsFromServer,
  validate,
  type FieldError,
  type FieldErrors,
} from './form-errors';

/**
 * One form's submission: check the values with the contract schema, send, and show what
 * went wrong: the server's field errors under their fields, anything else through the
 * overlay (the server's localized message, or `failureKey` when it could not be reached), or,
 * with `inline`, as `failure` for the form to show in place (a wrong password is not worth a
 * dialog to dismiss). `sending` drives the submit button's spinner.
 */
export function useFormSubmission<S extends z.ZodType>(
  schema: S,
  failureKey: string,
  { inline = false }: { inline?: boolean } = {},
) {
  const showMessage = useAppStore((state) => state.showMessage);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<FieldError | null>(null);
  const [sending, setSending] = useState(false);

  const submit = async (
    values: unknown,
    send: (data: z.output<S>) => Promise<void>,
    /** A reason to hold the form back that the schema cannot see (a promo code being checked). */
    heldBack = false,
  ) => {
    const checked = validate(schema, values);
    if (checked.errors || heldBack) {
      setErrors(checked.errors ?? {});
      return;
    }
    setErrors({});
    setFailure(null);
    setSending(true);
    try {
      await send(checked.data);
    } catch (error) {
      const fields = fieldErrorsFromServer(error);
      setErrors(fields);
      if (Object.keys(fields).length === 0) {
        const message = failureMessage(error, failureKey);
        if (inline) setFailure(message);
        else showMessage(message);
      }
    } finally {
      setSending(false);
    }
  };

  return { errors, failure, sending, submit };
}
