import type { AdminProfile, AdminSession, AdminSignInFailure } from '@tradebot/contract';
import type { AdminAuditStore } from '../repositories/admin-audit.repository';
import type { AdminRow, AdminSessionsStore, AdminsStore } from '../repositories/admins.repository';
import type { Clock } from '../repositories/clock';
import type { PasswordHasher } from '../repositories/password-hasher';
import type { Secrets } from '../repositories/secrets';
import type { Totp } from '../repositories/totp';
import type { TotpSecretSealer } from '../repositories/totp-secret-sealer';
import {
  AdminCredentialsInvalid,
  AdminSessionUnknown,
  AdminCodeIncorrect,
} from './admin-auth.errors';

const minute = 60_000;
/**
 * A password opens a session for five minutes, in which only the TOTP code can be given; the
 * code makes it a working session for eight hours (a shift). Five wrong codes end it.
 */
export const adminSessionPolicy = {
  secondFactorWindowMs: 5 * minute,
  lifetimeMs: 8 * 60 * minute,
  maxWrongCodes: 5,
} as const;

/** What a bearer token is worth on an admin route. */
export type AdminAuthentication =
  | { kind: 'admin'; admin: AdminRow; sessionId: string; expiresAt: Date }
  /** The password was right; the TOTP code was not given yet: 401. */
  | { kind: 'second-factor-missing' }
  /** A user's session: not an admin's, 403. */
  | { kind: 'user' }
  | { kind: 'none' };

export const adminProfileOf = (admin: AdminRow): AdminProfile => ({
  id: admin.id,
  email: admin.email,
  name: admin.name,
});

/** The support console's sign-in: password, then TOTP (docs/decisions/057-admin-console.md). */
export class AdminAuthService {
  private dummyHash: Promise<string> | undefined;

  constructor(
    private readonly admins: AdminsStore,
    private readonly sessions: AdminSessionsStore,
    private readonly audit: AdminAuditStore,
    private readonly hasher: PasswordHasher,
    private readonly secrets: Secrets,
    private readonly totp: Totp,
    /** Public for enrolment, which seals new secrets with the same keys. */
    readonly totpSealer: TotpSecretSealer,
    private readonly clock: Clock,
    /** Whether a token is a live user session (users' tokens get 403 here, not 401). */
    private readonly isUserToken: (token: string) => Promise<boolean>,
  ) {}

  /**
   * Same answer for an unknown e-mail and a wrong password, taking the same time (each writes
   * one audit entry). `address` is the client's, as the audit log records it.
   */
  async login(email: string, password: string, address: string): Promise<{ token: string }> {
    const admin = await this.admins.findByEmail(email);
    if (!admin) {
      this.dummyHash ??= this.hasher.hash('dummy-password-1');
      await this.hasher.verify(await this.dummyHash, password);
      await this.recordFailedSignIn('unknown_email', { email }, address);
      throw new AdminCredentialsInvalid();
    }
    if (!(await this.hasher.verify(admin.passwordHash, password))) {
      await this.recordFailedSignIn('wrong_password', { admin }, address);
      throw new AdminCredentialsInvalid();
    }
    const token = this.secrets.newToken();
    await this.sessions.create(
      admin.id,
      this.secrets.hash(token),
      new Date(this.clock.now().getTime() + adminSessionPolicy.secondFactorWindowMs),
    );
    return { token };
  }

  /** The TOTP code of a session opened by `login`; a code is accepted once. */
  async secondFactor(token: string, code: string, address: string): Promise<AdminSession> {
    const now = this.clock.now();
    const found = await this.sessions.findActive(this.secrets.hash(token), now);
    if (!found) throw new AdminSessionUnknown();
    const { session, admin } = found;
    if (session.secondFactorAt) {
      return { admin: adminProfileOf(admin), expiresAt: session.expiresAt.toISOString() };
    }
    const secret = this.totpSealer.open(admin.id, admin);
    const step = await this.totp.verify(secret, code, now, admin.lastTotpStep);
    if (step === undefined || !(await this.admins.useTotpStep(admin.id, step))) {
      const failures = await this.sessions.recordFailedCode(session.id);
      if (failures >= adminSessionPolicy.maxWrongCodes) await this.sessions.revoke(session.id, now);
      await this.recordFailedSignIn('wrong_code', { admin }, address);
      throw new AdminCodeIncorrect();
    }
    const expiresAt = new Date(now.getTime() + adminSessionPolicy.lifetimeMs);
    await this.sessions.completeSecondFactor(session.id, now, expiresAt);
    await this.audit.record(
      {
        adminId: admin.id,
        action: 'admin.signed_in',
        targetType: 'admin_session',
        targetId: session.id,
        before: null,
        after: { expiresAt: expiresAt.toISOString() },
      },
      now,
    );
    return { admin: adminProfileOf(admin), expiresAt: expiresAt.toISOString() };
  }

  /**
   * A console sign-in the limits refused (decision 067): audited as a failure. The limits call
   * it once per counter and window, not for every refused request (decision 079).
   */
  async signInRefused(email: string, address: string): Promise<void> {
    const admin = await this.admins.findByEmail(email);
    await this.recordFailedSignIn('rate_limited', admin ? { admin } : { email }, address);
  }

  /**
   * A failed console sign-in, in the audit log (decision 079): the admin it named, or, for an
   * e-mail that is no admin's, a keyed digest of it (what was typed there may be a password);
   * the client's address; the reason. Never the password or the code.
   */
  private async recordFailedSignIn(
    reason: AdminSignInFailure,
    who: { admin: AdminRow } | { email: string },
    address: string,
  ): Promise<void> {
    await this.audit.record(
      {
        adminId: 'admin' in who ? who.admin.id : null,
        action: 'admin.sign_in_failed',
        targetType: 'admin_sign_in',
        targetId: null,
        before: null,
        after: {
          reason,
          address,
          ...('email' in who ? { emailDigest: this.unknownEmailDigest(who.email) } : {}),
        },
      },
      this.clock.now(),
    );
  }

  /**
   * 16 hex digits of SHA-256(TOKEN_SECRET + label + e-mail): the same e-mail tried again shows
   * the same digest, and nobody reads back what was typed (decision 079).
   */
  private unknownEmailDigest(email: string): string {
    return this.secrets.hash(`admin-sign-in-email\n${email.trim().toLowerCase()}`).slice(0, 16);
  }

  async authenticate(token: string): Promise<AdminAuthentication> {
    if (token.length < 20 || token.length > 200) return { kind: 'none' };
    const found = await this.sessions.findActive(this.secrets.hash(token), this.clock.now());
    if (found) {
      return found.session.secondFactorAt
        ? {
            kind: 'admin',
            admin: found.admin,
            sessionId: found.session.id,
            expiresAt: found.session.expiresAt,
          }
        : { kind: 'second-factor-missing' };
    }
    return (await this.isUserToken(token)) ? { kind: 'user' } : { kind: 'none' };
  }

  async logout(admin: AdminRow, sessionId: string): Promise<void> {
    const now = this.clock.now();
    await this.sessions.revoke(sessionId, now);
    await this.audit.record(
      {
        adminId: admin.id,
        action: 'admin.signed_out',
        targetType: 'admin_session',
        targetId: sessionId,
        before: null,
        after: null,
      },
      now,
    );
  }

  /**
   * Seals every TOTP secret still in clear (stored before decision 059) or sealed with an older
   * key, with the newest key; run when the server starts, so adding a key and restarting
   * rotates. Each row is replaced only if it is still what was read. Returns how many changed.
   */
  async sealTotpSecrets(): Promise<number> {
    let sealed = 0;
    for (const admin of await this.admins.totpNotSealedWith(this.totpSealer.currentKeyId)) {
      const secret = this.totpSealer.open(admin.id, admin);
      const to = this.totpSealer.seal(admin.id, secret);
      if (await this.admins.resealTotp(admin.id, admin, to)) sealed++;
    }
    return sealed;
  }
}
