import type { Language } from '@tradebot/contract';
import type { Clock } from '../repositories/clock';
import type { Mailer } from '../repositories/mail.repository';
import type { PasswordHasher } from '../repositories/password-hasher';
import type { PasswordResetStore } from '../repositories/password-reset.repository';
import type { Secrets } from '../repositories/secrets';
import type { UsersStore } from '../repositories/users.repository';
import type { OnSessionsRevoked } from './auth.service';
import { recoveryCodeMail } from './mail-templates';
import { RecoveryCodeIncorrect } from './password-recovery.errors';

/** Recovery codes: six digits, single use, valid 15 minutes, at most 5 tries. */
export const recoveryPolicy = { validMinutes: 15, maxTries: 5 } as const;

export class PasswordRecoveryService {
  constructor(
    private readonly users: UsersStore,
    private readonly codes: PasswordResetStore,
    private readonly hasher: PasswordHasher,
    private readonly secrets: Secrets,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    /** Told when a code could not be stored or mailed (after the answer). */
    private readonly onFailure: (error: unknown) => void,
    private readonly onSessionsRevoked: OnSessionsRevoked = () => Promise.resolve(),
  ) {}

  /** Codes being stored and mailed after their answer. */
  private readonly pending = new Set<Promise<void>>();

  /**
   * Starts the work and returns before any of it is done, for an e-mail with an account and
   * for one without alike: the answer does the same work on both paths, so its timing does
   * not tell whether an account exists (issue 11). Looking the user up, storing the code and
   * mailing it happen after the answer; a failure is reported to `onFailure`.
   */
  requestCode(email: string, language: Language): void {
    const work = this.storeAndMailCode(email, language)
      .catch(this.onFailure)
      .finally(() => this.pending.delete(work));
    this.pending.add(work);
  }

  /** Resolves once every code requested so far is stored and handed to the mailer. */
  async settled(): Promise<void> {
    await Promise.all(this.pending);
  }

  private async storeAndMailCode(email: string, language: Language): Promise<void> {
    // After the answer: setImmediate runs once this turn of the event loop is over, the
    // handler's answer written out. (A microtask would run first, and PGlite's queries run on
    // this thread: the answer would wait for them.)
    await new Promise((resolve) => setImmediate(resolve));
    const user = await this.users.findByEmail(email);
    if (!user) return;
    const code = this.secrets.newRecoveryCode();
    const now = this.clock.now();
    await this.codes.replaceCode(
      user.id,
      this.secrets.hash(code),
      now,
      new Date(now.getTime() + recoveryPolicy.validMinutes * 60_000),
    );
    const message = await recoveryCodeMail(
      language,
      user.email,
      user.name,
      code,
      recoveryPolicy.validMinutes,
    );
    await this.mailer.send(message);
  }

  async setPassword(input: { email: string; otp: string; password: string }): Promise<void> {
    const user = await this.users.findByEmail(input.email);
    if (!user) throw new RecoveryCodeIncorrect();
    const now = this.clock.now();
    // A try is taken before the comparison, so concurrent guesses cannot share one.
    const code = await this.codes.claimTry(user.id, now, recoveryPolicy.maxTries);
    if (!code || !this.secrets.matches(input.otp, code.codeHash)) throw new RecoveryCodeIncorrect();
    const passwordHash = await this.hasher.hash(input.password);
    if (!(await this.codes.consumeAndSetPassword(code.id, user.id, passwordHash, now))) {
      throw new RecoveryCodeIncorrect();
    }
    // The new password ended every session (in the same transaction): their sockets close too.
    await this.onSessionsRevoked({ userId: user.id });
  }
}
