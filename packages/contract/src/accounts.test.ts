import { describe, expect, it } from 'vitest';
import {
  loginRequestSchema,
  registerRequestSchema,
  setPasswordRequestSchema,
  userConfigSchema,
} from './accounts';

const valid = {
  name: 'María José',
  last_name: "D'Ávila-Souza",
  email: 'maria@example.com',
  password: 'segura123',
  confirm_password: 'segura123',
  accept_terms: true,
  accept_privacy: true,
};

function messagesOf(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  return Object.fromEntries(
    (result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]),
  );
}

describe('registerRequestSchema (spec §5)', () => {
  it('accepts a complete form with accents, apostrophes and hyphens', () => {
    expect(
      registerRequestSchema.safeParse({ ...valid, phone: '+55 (11) 91234-5678', promocode: '' })
        .success,
    ).toBe(true);
  });

  it.each([
    [{ email: 'not-an-email' }, 'email', 'validation.email'],
    [{ email: '' }, 'email', 'validation.emailRequired'],
    [{ name: 'R2D2' }, 'name', 'validation.latinLetters'],
    [{ name: 'Иван' }, 'name', 'validation.latinLetters'],
    [{ name: 'A' }, 'name', 'validation.min'],
    [{ last_name: 'x'.repeat(51) }, 'last_name', 'validation.max'],
    [
      { password: 'onlyletters', confirm_password: 'onlyletters' },
      'password',
      'validation.passwordLetterAndNumber',
    ],
    [
      { password: '12345678', confirm_password: '12345678' },
      'password',
      'validation.passwordLetterAndNumber',
    ],
    [{ password: 'ab1', confirm_password: 'ab1' }, 'password', 'validation.min'],
    [{ confirm_password: 'different1' }, 'confirm_password', 'validation.passwordsMatch'],
    [{ accept_terms: false }, 'accept_terms', 'validation.acceptTerms'],
    [{ accept_privacy: false }, 'accept_privacy', 'validation.acceptPrivacy'],
    [{ accept_privacy: undefined }, 'accept_privacy', 'validation.acceptPrivacy'],
    [{ phone: 'call me' }, 'phone', 'validation.numbersOnly'],
    [{ phone: '123' }, 'phone', 'validation.min'],
  ])('refuses %j on %s with %s', (change, field, key) => {
    expect(messagesOf(registerRequestSchema.safeParse({ ...valid, ...change }))[field]).toBe(key);
  });
});

describe('consent at registration (decision 087)', () => {
  it('leaves the newsletter off unless it was ticked', () => {
    expect(registerRequestSchema.parse(valid).subscribe_newsletter).toBe(false);
    expect(
      registerRequestSchema.parse({ ...valid, subscribe_newsletter: true }).subscribe_newsletter,
    ).toBe(true);
  });

  it('wants privacy consent as an explicit true, in Portuguese and Spanish alike', () => {
    for (const language of ['es', 'pt'] as const) {
      for (const accept_privacy of [false, 'true', 1, null]) {
        expect(
          registerRequestSchema.safeParse({ ...valid, language, accept_privacy }).success,
        ).toBe(false);
      }
    }
  });

  it('does not take a newsletter choice that is not a boolean', () => {
    expect(registerRequestSchema.safeParse({ ...valid, subscribe_newsletter: 'yes' }).success).toBe(
      false,
    );
  });
});

describe('other account schemas', () => {
  it('defaults rememberMe to false', () => {
    expect(loginRequestSchema.parse({ email: 'a@b.co', password: 'x' }).rememberMe).toBe(false);
  });

  it('wants a six-digit code', () => {
    const base = { email: 'a@b.co', password: 'nueva123', confirm_password: 'nueva123' };
    expect(setPasswordRequestSchema.safeParse({ ...base, otp: '123456' }).success).toBe(true);
    expect(messagesOf(setPasswordRequestSchema.safeParse({ ...base, otp: '12345' })).otp).toBe(
      'validation.otpFormat',
    );
    for (const otp of ['12345a', 'abc', '12 345']) {
      expect(messagesOf(setPasswordRequestSchema.safeParse({ ...base, otp })).otp).toBe(
        'validation.numbersOnly',
      );
    }
  });

  it('describes the user config of spec §3', () => {
    const config = {
      user: { id: 'u1', name: 'A', last_name: 'B', email: 'a@b.co', subscribed_newsletter: false },
      settings: {
        bot_on: false,
        risk: 1,
        categories_enabled: {
          forex: true,
          cripto: true,
          stocks: true,
          index: true,
          commodities: true,
          all: true,
        },
      },
      linked: false,
      login_tradear: false,
      authorized: false,
    };
    expect(userConfigSchema.parse(config)).toEqual(config);
    expect(
      userConfigSchema.safeParse({
        ...config,
        settings: { ...config.settings, categories_enabled: { forex: true } },
      }).success,
    ).toBe(false);
  });
});
