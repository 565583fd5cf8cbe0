import { registerRequestSchema } from '@tradebot/contract';
import { describe, expect, it } from 'vitest';
import { issueError, validate } from '../../lib/form-errors';
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
    expect(
      validate(registerRequestSchema, registerPayload(values, tracking, 'es', 'yearly')).errors,
    ).toBeUndefined();
  });

  it('maps contract issues to catalogue keys with their count', () => {
    const result = validate(
      registerRequestSchema,
      registerPayload(
        { ...values, name: 'A', password: 'abc', confirm_password: 'abc', accept_terms: false },
        { partner_id: null, client_source: null, referral: null },
        'es',
      ),
    );
    expect(result.errors).toMatchObject({
      name: { key: 'contract:validation.min', count: 2 },
      password: { key: 'contract:validation.min', count: 8 },
      accept_terms: { key: 'contract:validation.acceptTerms' },
    });
  });

  it('wants the privacy box ticked and sends the newsletter as it was left (decision 087)', () => {
    const untouched = registerPayload(
      { ...values, accept_privacy: false },
      { partner_id: null, client_source: null, referral: null },
      'pt',
    );
    expect(untouched).toMatchObject({ accept_privacy: false, subscribe_newsletter: false });
    expect(validate(registerRequestSchema, untouched).errors).toEqual({
      accept_privacy: { key: 'contract:validation.acceptPrivacy' },
    });
  });

  it('says the passwords differ (once the other fields pass, as zod refines objects)', () => {
    const result = validate(
      registerRequestSchema,
      registerPayload(
        { ...values, confirm_password: 'segura124' },
        { partner_id: null, client_source: null, referral: null },
        'es',
      ),
    );
    expect(result.errors).toEqual({
      confirm_password: { key: 'contract:validation.passwordsMatch' },
    });
  });

  it('falls back by issue code when a message is not a catalogue key', () => {
    expect(issueError({ code: 'invalid_type', message: 'x' })).toEqual({
      key: 'contract:validation.required',
    });
    expect(issueError({ code: 'too_big', message: 'x', origin: 'string', maximum: 5 })).toEqual({
      key: 'contract:validation.max',
      count: 5,
    });
    expect(issueError({ code: 'custom', message: 'x', input: 1 })).toEqual({
      key: 'contract:validation.invalidValue',
    });
  });
});
