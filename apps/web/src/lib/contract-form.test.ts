import {
  changePasswordRequestSchema,
  contactRequestSchema,
  loginRequestSchema,
} from '@tradebot/contract';
import type { FieldError, FieldErrors, FieldValues } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { shownError } from '../components/form/form-fields';
import { ApiRequestError } from './api-client';
import { contractResolver, lazySchema, placeServerErrors } from './contract-form';

const options = { fields: {}, shouldUseNativeValidation: false };

/** Each field's error as the form shows it. */
function shownAll(errors: FieldErrors) {
  return Object.fromEntries(
    Object.entries(errors).map(([name, error]) => [name, shownError(error as FieldError)]),
  );
}

describe('contractResolver', () => {
  it("gives each field its first issue as the contract's catalogue message, count included", async () => {
    const resolve = contractResolver(changePasswordRequestSchema);
    const result = await resolve(
      { current_password: '', password: 'abc', confirm_password: 'abc' },
      undefined,
      options,
    );
    expect(result.values).toEqual({});
    expect(shownAll(result.errors)).toEqual({
      // The bound of `.min(1)` comes along, as in the server's answer; the text has no count.
      current_password: { key: 'contract:validation.required', count: 1 },
      password: { key: 'contract:validation.min', count: 8 },
    });
  });

  it('hands the parsed request to the submit handler when the values pass', async () => {
    const resolve = contractResolver(contactRequestSchema);
    const result = await resolve(
      { kind: 'customer_service', subject: '  Una pregunta  ', message: 'Hola, ¿cómo retiro?' },
      undefined,
      options,
    );
    expect(result.errors).toEqual({});
    expect(result.values).toMatchObject({ subject: 'Una pregunta' });
  });

  it('checks what the form turns into the request, and names the fields the request names', async () => {
    const resolve = contractResolver(contactRequestSchema, (form: { text: string }) => ({
      kind: 'customer_service',
      subject: 'Retiro',
      message: form.text,
    }));
    const result = await resolve({ text: '' }, undefined, options);
    expect(Object.keys(result.errors)).toEqual(['message']);
  });
});

describe('lazySchema', () => {
  it('imports the schema once, on prepare or on the first check, and checks as contractResolver does', async () => {
    const load = vi.fn(() => Promise.resolve(loginRequestSchema));
    const lazy = lazySchema(load);
    const resolve = lazy.resolver<{ email: string; password: string }>();
    expect(load).not.toHaveBeenCalled();
    lazy.prepare();
    lazy.prepare();
    const result = await resolve({ email: 'not-an-email', password: '' }, undefined, options);
    expect(load).toHaveBeenCalledTimes(1);
    expect(Object.keys(result.errors)).toEqual(['email', 'password']);
    const passed = await resolve({ email: 'ana@example.com', password: 'x' }, undefined, options);
    expect(passed.values).toEqual({ email: 'ana@example.com', password: 'x', rememberMe: false });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('tries the import again when the form is sent after a failed one', async () => {
    const load = vi
      .fn<() => Promise<typeof loginRequestSchema>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValue(loginRequestSchema);
    const lazy = lazySchema(load);
    lazy.prepare();
    // The failure settles (nothing shows it: the form is not being sent).
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(load).toHaveBeenCalledTimes(1);
    const result = await lazy.resolver()({ email: '', password: '' }, undefined, options);
    expect(load).toHaveBeenCalledTimes(2);
    expect(Object.keys(result.errors)).toEqual(['email', 'password']);
  });
});

describe('shownError', () => {
  it("shows the server's words as they came", () => {
    expect(shownError({ type: 'server', message: 'Ese correo ya existe' })).toEqual({
      text: 'Ese correo ya existe',
    });
  });

  it('shows anything that is not a catalogue message as the generic one, and nothing as nothing', () => {
    expect(shownError({ type: 'invalid_type', message: 'Invalid input' })).toEqual({
      key: 'contract:validation.invalidValue',
    });
    expect(shownError(undefined)).toBeUndefined();
  });
});

describe('placeServerErrors', () => {
  const refusal = new ApiRequestError(422, 'VALIDATION_FAILED', 'Datos no válidos', {
    email: ['Ese correo ya existe'],
    phone: ['Número no válido', 'otro'],
  });

  function recorder() {
    const placed: Record<string, unknown> = {};
    const setError = (name: string, error: unknown) => {
      placed[name] = error;
    };
    return { placed, setError };
  }

  it("puts each field's first server message under it", () => {
    const { placed, setError } = recorder();
    expect(placeServerErrors<FieldValues>(refusal, setError)).toBe(true);
    expect(placed).toEqual({
      email: { type: 'server', message: 'Ese correo ya existe' },
      phone: { type: 'server', message: 'Número no válido' },
    });
  });

  it('places only the fields asked for, and says when none was placed', () => {
    const { placed, setError } = recorder();
    expect(placeServerErrors<FieldValues>(refusal, setError, ['password'])).toBe(false);
    expect(placed).toEqual({});
    expect(placeServerErrors<FieldValues>(new Error('offline'), setError)).toBe(false);
  });
});
