import { registerRequestSchema } from '@tradebot/contract';
import { describe, expect, it } from 'vitest';
import type { FieldError, FieldErrors } from 'react-hook-form';
import { shownError } from '../../components/form/form-fields';
import { contractResolver } from '../../lib/contract-form';
import { registerPayload, type RegisterValues } from './register-form';

const values: RegisterValues = {
  name: 'Ana',
  last_name: 'Paz',
  email: 'ana@example.com',
  phone: ' ',
  password: 'segura123',
  confirm_password: 'segura123',
  accept_terms: true,
  accept_privacy: true,
  subscribe_newsletter: false,
  promocode: '',
};

const tracking = { partner_id: null, client_source: null, referral: null };

/** What the register form shows under each field, as its resolver checks `values` in `language`. */
async function shown(form: RegisterValues, language: 'es' | 'pt' = 'es') {
  const resolve = contractResolver(registerRequestSchema, (checked: RegisterValues) =>
    registerPayload(checked, tracking, language, 'yearly'),
  );
  const { errors } = await resolve(form, undefined, {
    fields: {},
    shouldUseNativeValidation: false,
  });
  const fields = errors as FieldErrors<RegisterValues>;
  return Object.fromEntries(
    Object.entries(fields).map(([name, error]) => [name, shownError(error as FieldError)]),
  );
}

describe('the register form', () => {
  it('sends the stored tracking values under the contract names, empty ones as null', () => {
    expect(
      registerPayload(values, { partner_id: '77', client_source: null, referral: 'a=b|' }, 'pt'),
    ).toMatchObject({
      phone: null,
      promocode: null,
      partner_id: '77',
      client_source: null,
      referral: 'a=b|',
      language: 'pt',
    });
  });

  it('sends the plan chosen on the home page, so another browser confirming it knows it', () => {
    const tracking = { partner_id: null, client_source: null, referral: null };
    expect(registerPayload(values, tracking, 'es', 'yearly')).toMatchObject({ plan: 'yearly' });
    expect(registerPayload(values, tracking, 'es')).toMatchObject({ plan: null });
  });

  it('sends the request the contract accepts when the form is filled in', async () => {
    expect(await shown(values)).toEqual({});
  });

  it('shows contract issues as catalogue keys with their count', async () => {
    expect(
      await shown({
        ...values,
        name: 'A',
        password: 'abc',
        confirm_password: 'abc',
        accept_terms: false,
      }),
    ).toMatchObject({
      name: { key: 'contract:validation.min', count: 2 },
      password: { key: 'contract:validation.min', count: 8 },
      accept_terms: { key: 'contract:validation.acceptTerms' },
    });
  });

  it('wants the privacy box ticked and sends the newsletter as it was left (decision 087)', async () => {
    const untouched = registerPayload({ ...values, accept_privacy: false }, tracking, 'pt');
    expect(untouched).toMatchObject({ accept_privacy: false, subscribe_newsletter: false });
    expect(await shown({ ...values, accept_privacy: false }, 'pt')).toEqual({
      accept_privacy: { key: 'contract:validation.acceptPrivacy' },
    });
  });

  it('says the passwords differ', async () => {
    expect(await shown({ ...values, confirm_password: 'segura124' })).toEqual({
      confirm_password: { key: 'contract:validation.passwordsMatch' },
    });
  });

  it('says the passwords differ together with the other errors, in one submit (issue 39)', async () => {
    expect(
      await shown({ ...values, name: '', password: 'abc', accept_terms: false }),
    ).toMatchObject({
      name: { key: 'contract:validation.required' },
      password: { key: 'contract:validation.min', count: 8 },
      accept_terms: { key: 'contract:validation.acceptTerms' },
      confirm_password: { key: 'contract:validation.passwordsMatch' },
    });
  });
});
