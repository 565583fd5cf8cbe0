import { describe, expect, it } from 'vitest';
import { WebhookRejected } from '../payment-provider';
import { checkCard } from './card';
import { signWebhook, verifyWebhookSignature } from './webhook-signature';

const now = new Date('2026-11-21T12:00:00Z');
const form = {
  name: 'María Gonçalves',
  number: '4242 4242 4242 4242',
  expiry: '12/34',
  cvc: '123',
};

describe('the simulated checkout’s cards', () => {
  it('knows its test cards and keeps only brand and last four', () => {
    expect(checkCard(form, now)).toEqual({
      ok: true,
      outcome: 'pays',
      brand: 'visa',
      last4: '4242',
    });
    expect(checkCard({ ...form, number: '4000-0000-0000-0002' }, now)).toMatchObject({
      ok: true,
      outcome: 'declined',
    });
    expect(checkCard({ ...form, number: '4000000000000341' }, now)).toMatchObject({
      outcome: 'renewals_declined',
    });
  });

  it('refuses what is not a test card, and a form to correct', () => {
    expect(checkCard({ ...form, number: '5555 5555 5555 4444' }, now)).toEqual({
      ok: false,
      problems: ['not_a_test_card'],
    });
    expect(
      checkCard({ name: ' ', number: '4242 4242 4242 4241', expiry: '10/26', cvc: '12' }, now),
    ).toEqual({
      ok: false,
      problems: ['name_required', 'invalid_number', 'expired', 'invalid_cvc'],
    });
    expect(checkCard({ ...form, expiry: '13/30' }, now)).toEqual({
      ok: false,
      problems: ['invalid_expiry'],
    });
    // The card is valid through the last day of its month.
    expect(checkCard({ ...form, expiry: '11/26' }, now).ok).toBe(true);
  });
});

describe('webhook signatures', () => {
  const secret = 'a-secret-of-sixteen-characters';
  const body = '{"id":"evt_1"}';
  const at = Math.floor(now.getTime() / 1000);
  it('accepts its own signature within 300 s, either way', () => {
    const header = signWebhook(secret, body, at);
    expect(() => {
      verifyWebhookSignature(secret, body, header, now.getTime() + 300_000);
    }).not.toThrow();
    expect(() => {
      verifyWebhookSignature(secret, body, header, now.getTime() - 300_000);
    }).not.toThrow();
  });

  it('refuses another secret, another body, a stale or missing header', () => {
    const header = signWebhook(secret, body, at);
    for (const attempt of [
      () => {
        verifyWebhookSignature('another-secret-of-sixteen', body, header, now.getTime());
      },
      () => {
        verifyWebhookSignature(secret, `${body} `, header, now.getTime());
      },
      () => {
        verifyWebhookSignature(secret, body, header, now.getTime() + 301_000);
      },
      () => {
        verifyWebhookSignature(secret, body, undefined, now.getTime());
      },
      () => {
        verifyWebhookSignature(secret, body, 't=1,v1=zz', now.getTime());
      },
    ]) {
      expect(attempt).toThrow(WebhookRejected);
    }
  });
});
