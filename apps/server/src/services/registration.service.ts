import {
  privacyPolicyVersion,
  type PlanId,
  registrationBlockedCountries,
  type Language,
  type RegisterRequest,
} from '@tradebot/contract';
import { DuplicateKey } from '../repositories/errors';
import type { Clock } from '../repositories/clock';
import type { ConsentsStore, NewConsent } from '../repositories/consents.repository';
import type { Mailer } from '../repositories/mail.repository';
import type { PasswordHasher } from '../repositories/password-hasher';
import type {
  PendingRegistration,
  RegistrationConsent,
} from '../repositories/registration-confirmations.repository';
import type { PromoCodeRow, PromoCodesStore } from '../repositories/promo-codes.repository';
import type {
  RegistrationConfirmationRow,
  RegistrationConfirmationsStore,
} from '../repositories/registration-confirmations.repository';
import type { Secrets } from '../repositories/secrets';
import type { Tx } from '../repositories/transaction';
import type { NewUser, UsersStore } from '../repositories/users.repository';
import {
  alreadyRegisteredMail,
  confirmRegistrationMail,
  welcomeMail,
} from './registration-mail-templates';
import { blankToNull } from './optional-text';
import type { PromoBenefits } from './promo-benefits';
import {
  RegionBlocked,
  ConfirmationLinkInvalid,
  ConfirmationNeedsPassword,
  ConfirmationWrongPassword,
  ConfirmationUsed,
} from './registration.errors';
import { PromoCodeInvalid } from './promo-codes.errors';

/** A registration waits a day for its e-mail to be confirmed (decision 085). */
export const registrationPolicy = { validHours: 24 } as const;

/** Addresses in the e-mails: built from the configured origin, never from a request. */
export interface RegistrationLinks {
  /** An absolute address of the web app's `path` in `language` (Portuguese under /pt). */
  page(language: Language, path: string): string;
}

/** What was being done after an answer when it failed. */
export type RegistrationMailStep = 'confirmation' | 'welcome';

/** What the confirmation did with the promo code given at registration. */
export type PromocodeOutcome = 'applied' | 'expired' | null;

/**
 * Registration in two steps (issue 18, finding 9; decision 085). `request` answers the same
 * whether or not the address has an account, before any of that is looked up: what differs
 * goes by e-mail (a confirmation link, or "you already have an account"). `confirm` creates the
 * account from the link, for the browser that registered (it holds the nonce) or for whoever
 * also knows the password chosen, so a registration someone else made for your address cannot
 * become your account.
 */
export class RegistrationService {
  /** Registrations being stored and mailed after their answer. */
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly deps: {
      users: UsersStore;
      confirmations: RegistrationConfirmationsStore;
      consents: ConsentsStore;
      promoCodes: PromoCodesStore;
      hasher: PasswordHasher;
      secrets: Secrets;
      mailer: Mailer;
      clock: Clock;
      links: RegistrationLinks;
      /** Named in the welcome e-mail (SUPPORT_EMAIL, else OPERATOR_EMAIL), or null: the contact form. */
      supportEmail: string | null;
      /** Opens a session for the new account (AuthService), with the browser's User-Agent. */
      signIn: (userId: string, userAgent: string | undefined) => Promise<{ token: string }>;
      /** What a promo code at registration gives (the free month). */
      promoBenefits?: PromoBenefits;
      /** Told when a registration could not be stored or mailed, or a welcome not mailed. */
      onFailure: (error: unknown, step: RegistrationMailStep) => void;
    },
  ) {}

  /**
   * Checks what does not depend on the address (the country, the promo code), then answers
   * with a nonce for this browser; storing and mailing happen after the answer.
   */
  async request(
    input: RegisterRequest,
    context: { countryCode: string; language: Language },
  ): Promise<{ nonce: string }> {
    // spec §5: registration is blocked for UY.
    if (registrationBlockedCountries.includes(context.countryCode)) {
      throw new RegionBlocked();
    }
    const promocode = blankToNull(input.promocode);
    if (promocode && !(await this.deps.promoCodes.findUsable(promocode, this.deps.clock.now()))) {
      throw new PromoCodeInvalid();
    }
    const nonce = this.deps.secrets.newToken();
    // The moment the boxes were ticked is now, not when the link is opened (decision 087).
    const consent: RegistrationConsent = {
      givenAt: this.deps.clock.now().toISOString(),
      privacyPolicyVersion,
      language: context.language,
      terms: true,
      privacy: true,
      marketing: input.subscribe_newsletter === true,
    };
    this.afterAnswer(this.storeAndMail(input, context.language, nonce, consent), 'confirmation');
    return { nonce };
  }

  /** Resolves once every registration and welcome so far is stored and handed to the mailer. */
  async settled(): Promise<void> {
    await Promise.all(this.pending);
  }

  private afterAnswer(work: Promise<void>, step: RegistrationMailStep) {
    const tracked = work
      .catch((error: unknown) => {
        this.deps.onFailure(error, step);
      })
      .finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  private async storeAndMail(
    input: RegisterRequest,
    language: Language,
    nonce: string,
    consent: RegistrationConsent,
  ) {
    // After the answer (see PasswordRecoveryService.storeAndMailCode).
    await new Promise((resolve) => setImmediate(resolve));
    const { users, secrets, clock, mailer, links } = this.deps;
    const email = input.email.trim();
    const existing = await users.findByEmail(email);
    if (existing) {
      await mailer.send(
        await alreadyRegisteredMail(language, existing.email, existing.name, {
          login: links.page(language, '/login'),
          recover: links.page(language, '/forgot-password'),
        }),
      );
      return;
    }
    const registration: PendingRegistration = {
      name: input.name.trim(),
      lastName: input.last_name.trim(),
      email,
      phone: blankToNull(input.phone),
      passwordHash: await this.deps.hasher.hash(input.password),
      language,
      partnerId: blankToNull(input.partner_id),
      clientSource: blankToNull(input.client_source),
      // Stored verbatim (spec §4 tracking): "name=value|name=value|".
      referral: input.referral ?? null,
      promocode: blankToNull(input.promocode)?.toUpperCase() ?? null,
      consent,
      plan: input.plan ?? null,
    };
    const token = secrets.newToken();
    const now = clock.now();
    await this.deps.confirmations.add(
      { token: secrets.hash(token), nonce: secrets.hash(nonce) },
      registration,
      now,
      new Date(now.getTime() + registrationPolicy.validHours * 3_600_000),
    );
    const link = `${links.page(language, '/register')}?confirmation_token=${encodeURIComponent(token)}`;
    await mailer.send(
      await confirmRegistrationMail(
        language,
        email,
        registration.name,
        link,
        registrationPolicy.validHours,
      ),
    );
  }

  /**
   * Creates the account a confirmation link stands for and signs it in. The browser that
   * registered sends its nonce; another one sends the password chosen at registration.
   */
  async confirm(
    input: {
      token: string;
      nonce?: string | null;
      password?: string | null;
    },
    userAgent?: string,
  ): Promise<{ token: string; promocode: PromocodeOutcome; plan: PlanId | null }> {
    const { secrets, clock } = this.deps;
    const now = clock.now();
    const found = await this.deps.confirmations.find(secrets.hash(input.token), now);
    if (!found) throw new ConfirmationLinkInvalid();
    await this.checkOwner(found, input);
    const outcome = await this.createAccount(found, now);
    const session = await this.deps.signIn(outcome.userId, userAgent);
    if (outcome.benefitGranted) await this.deps.promoBenefits?.granted(outcome.userId);
    this.afterAnswer(this.mailWelcome(found.registration), 'welcome');
    return {
      token: session.token,
      promocode: outcome.promocode,
      plan: found.registration.plan ?? null,
    };
  }

  /** The welcome e-mail, in the account's language, after the answer (issue 23). */
  private async mailWelcome(account: PendingRegistration) {
    await new Promise((resolve) => setImmediate(resolve));
    const { links, mailer } = this.deps;
    await mailer.send(
      await welcomeMail(account.language, account.email, account.name, {
        plan: links.page(account.language, '/payment'),
        linkPlatform: links.page(account.language, '/link-account'),
        robot: links.page(account.language, '/profile-config'),
        supportEmail: this.deps.supportEmail,
        contactUrl: links.page(account.language, '/contact'),
      }),
    );
  }

  private async checkOwner(
    found: RegistrationConfirmationRow,
    input: { nonce?: string | null; password?: string | null },
  ) {
    if (input.nonce && this.deps.secrets.matches(input.nonce, found.nonceHash)) return;
    if (!input.password) {
      throw new ConfirmationNeedsPassword();
    }
    if (!(await this.deps.hasher.verify(found.registration.passwordHash, input.password))) {
      throw new ConfirmationWrongPassword();
    }
  }

  /** The account, its settings, the link used up and the promo code's use: all or nothing. */
  private async createAccount(found: RegistrationConfirmationRow, now: Date) {
    const pending = found.registration;
    // Stored before consent was asked for (decision 087): no consent on record, no account.
    const consent = pending.consent;
    if (!consent) throw new ConfirmationLinkInvalid();
    let redeemed: PromoCodeRow | undefined;
    let benefitGranted = false;
    const account: NewUser = {
      name: pending.name,
      lastName: pending.lastName,
      email: pending.email,
      phone: pending.phone,
      passwordHash: pending.passwordHash,
      language: pending.language,
      partnerId: pending.partnerId,
      clientSource: pending.clientSource,
      referral: pending.referral,
      promocode: null,
      // The newsletter box, unticked unless the user ticked it (decision 087).
      subscribedNewsletter: consent.marketing,
    };
    try {
      const user = await this.deps.users.create(
        account,
        {},
        async (tx: Tx) => {
          if (!(await this.deps.confirmations.consume(tx, found.id)))
            throw new ConfirmationLinkInvalid();
          // A code that ran out or expired since registering: the account is made without it.
          if (pending.promocode) {
            redeemed = await this.deps.promoCodes.redeem(pending.promocode, now, tx);
            // Read by the insert that follows this step.
            if (redeemed) account.promocode = pending.promocode;
          }
        },
        async (tx: Tx, created) => {
          await this.deps.consents.record(tx, consentRows(created.id, consent));
          if (!redeemed) return;
          await this.deps.promoCodes.recordUse(tx, {
            code: redeemed.code,
            userId: created.id,
            benefit: redeemed.benefit,
            source: 'registration',
            usedAt: now,
          });
          if (!this.deps.promoBenefits) return;
          await this.deps.promoBenefits.grant(tx, created.id, redeemed.benefit);
          benefitGranted = true;
        },
      );
      const promocode: PromocodeOutcome = pending.promocode
        ? redeemed
          ? 'applied'
          : 'expired'
        : null;
      return { userId: user.id, promocode, benefitGranted };
    } catch (error) {
      // The address got an account meanwhile (another link of it was used): sign in instead.
      if (error instanceof DuplicateKey) {
        throw new ConfirmationUsed();
      }
      throw error;
    }
  }
}

/** One row per purpose, refusals included: the newsletter left unticked is a choice too. */
function consentRows(userId: string, consent: RegistrationConsent): NewConsent[] {
  const base = {
    userId,
    policyVersion: consent.privacyPolicyVersion,
    language: consent.language,
    source: 'registration',
    givenAt: new Date(consent.givenAt),
  };
  return [
    { ...base, purpose: 'terms', granted: consent.terms },
    { ...base, purpose: 'privacy', granted: consent.privacy },
    { ...base, purpose: 'marketing', granted: consent.marketing },
  ];
}
