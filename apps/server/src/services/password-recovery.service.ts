import type { Language } from '@tradebot/contract';
import { AppError } from '../http/errors';
import type { Clock } from '../repositories/clock';
import type { Mailer } from '../repositories/mail.repository';
import type { PasswordHasher } from '../repositories/password-hasher';
import type { PasswordResetRepository } from '../repositories/password-reset.repository';
import type { Secrets } from '../repositories/secrets';
import type { UsersRepository } from '../repositories/users.repository';
import type { OnSessionsRevoked } from './auth.service';
import { recoveryCodeMail } from './mail-templates';

/** Recovery codes: six digits, single use, valid 15 minutes, at most 5 wrong tries. */
export const recoveryPolicy = { validMinutes: 15, maxWrongTries: 5 } as const;

const incorrectCode = () => AppError.onField('otp', 'auth.incorrectCode');

export class PasswordRecoveryService {
  constructor(
    private readonly users: UsersRepository,
    private readonly codes: PasswordResetRepository,
    private readonly hasher: PasswordHasher,
    private readonly secrets: Secrets,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly onMailFailure: (error: unknown) => void,
    private readonly onSessionsRevoked: OnSessionsRevoked = () => Promise.resolve(),
  ) {}

  /**
   * Answers the same whether or not the e-mail has an account. The mail goes out after
   * the answer, so its latency does not tell either.
   */
  async requestCode(email: string, language: Language): Promise<void> {
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
    const message = recoveryCodeMail(
      language,
      user.email,
      user.name,
      code,
      recoveryPolicy.validMinutes,
    );
    this.mailer.send(message).catch(this.onMailFailure);
  }

  async setPassword(input: { email: string; otp: string; password: string }): Promise<void> {
    const user = await this.users.findByEmail(input.email);
    if (!user) throw incorrectCode();
    const now = this.clock.now();
    const code = await this.codes.findUsable(user.id, now, recoveryPolicy.maxWrongTries);
    if (!code) throw incorrectCode();
    if (!this.secrets.matches(input.otp, code.codeHash)) {
      await this.codes.recordWrongTry(code.id);
      throw incorrectCode();
    }
    const passwordHash = await this.hasher.hash(input.password);
    if (!(await this.codes.consumeAndSetPassword(code.id, user.id, passwordHash, now))) {
      throw incorrectCode();
    }
    // The new password ended every session (in the same transaction): their sockets close too.
    await this.onSessionsRevoked({ userId: user.id });
  }
}
