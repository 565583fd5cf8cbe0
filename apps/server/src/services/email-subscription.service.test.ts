import { describe, expect, it, vi } from 'vitest';
import type { EmailSubscriptionsStore } from '../repositories/email-subscriptions.repository';
import type { MailMessage, Mailer } from '../repositories/mail.repository';
import type { PromoCodeRow, PromoCodesStore } from '../repositories/promo-codes.repository';
import { SubscriptionPromoUnavailable } from './email-subscription.errors';
import { codeMailIntervalMs, EmailSubscriptionService } from './email-subscription.service';

const start = new Date('2026-11-26T12:00:00.000Z');

/**
 * Plain stubs: a code book (code → benefit), a subscription store that keeps each address's
 * promotion and last mail as the repository does, and a mailer that keeps what it sends.
 */
function rig(codes: Record<string, string>) {
  let now = start;
  const added: { email: string; promo: string | null; language: string }[] = [];
  const lastMailed = new Map<string, Date>();
  const sent: MailMessage[] = [];
  const claims: { at: Date; mailedBefore: Date }[] = [];
  const promoCodes = {
    findUsable: (code: string) =>
      Promise.resolve(codes[code] ? ({ code, benefit: codes[code] } as PromoCodeRow) : undefined),
  } as unknown as PromoCodesStore;
  const subscriptions: EmailSubscriptionsStore = {
    add: (email, promo, language) => {
      added.push({ email, promo, language });
      return Promise.resolve(added.filter((row) => row.email === email).length === 1);
    },
    claimCodeMail: (email, _language, at, mailedBefore) => {
      claims.push({ at, mailedBefore });
      const last = lastMailed.get(email);
      if (last && last >= mailedBefore) return Promise.resolve(false);
      lastMailed.set(email, at);
      return Promise.resolve(true);
    },
  };
  const mailer: Mailer = {
    send: (message) => {
      sent.push(message);
      return Promise.resolve();
    },
    close: () => Promise.resolve(),
  };
  const service = new EmailSubscriptionService(
    subscriptions,
    promoCodes,
    mailer,
    { now: () => now },
    (error) => {
      throw error;
    },
  );
  const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
  return {
    service,
    added,
    sent,
    claims,
    settle,
    advance: (ms: number) => (now = new Date(now.getTime() + ms)),
  };
}

describe('EmailSubscriptionService.subscribe (decision 049)', () => {
  it('uses the landing promotion MESGRATIS when the form names none or a blank one, and mails its code', async () => {
    const { service, added, sent } = rig({ MESGRATIS: 'free_month' });
    expect(await service.subscribe('  ana@example.com ', '   ', 'pt')).toBe('subscribed');
    expect(added).toEqual([{ email: 'ana@example.com', promo: 'MESGRATIS', language: 'pt' }]);
    await vi.waitFor(() => {
      expect(sent).toHaveLength(1);
    });
    expect(sent[0]?.to).toBe('ana@example.com');
    expect(sent[0]?.text).toContain('MESGRATIS');
  });

  it('refuses a promotion that gives no free month, or none usable, before storing anything', async () => {
    const { service, added, sent, settle } = rig({ MESGRATIS: 'free_month', HALF: 'discount' });
    await expect(service.subscribe('ana@example.com', 'HALF', 'es')).rejects.toBeInstanceOf(
      SubscriptionPromoUnavailable,
    );
    await expect(service.subscribe('ana@example.com', 'GONE', 'es')).rejects.toBeInstanceOf(
      SubscriptionPromoUnavailable,
    );
    await settle();
    expect(added).toEqual([]);
    expect(sent).toEqual([]);
  });

  it('answers a repeat as a first subscription but mails the code again only after a day', async () => {
    const { service, sent, claims, settle, advance } = rig({ OTRO: 'free_month' });
    await service.subscribe('ana@example.com', 'OTRO', 'es');
    await settle();
    advance(codeMailIntervalMs - 1);
    expect(await service.subscribe('ana@example.com', 'OTRO', 'es')).toBe('subscribed');
    await settle();
    expect(sent).toHaveLength(1);
    // The store mails again when the last mail is strictly before now minus a day.
    advance(2);
    expect(await service.subscribe('ana@example.com', 'OTRO', 'pt')).toBe('subscribed');
    await vi.waitFor(() => {
      expect(sent).toHaveLength(2);
    });
    // The repeat's mail is in the language of the repeat: the two differ.
    expect(sent[1]?.subject).not.toBe(sent[0]?.subject);
    for (const claim of claims) {
      expect(claim.at.getTime() - claim.mailedBefore.getTime()).toBe(codeMailIntervalMs);
    }
  });
});
