import { randomUUID } from 'node:crypto';
import { emailSchema } from '@tradebot/contract';
import { z } from 'zod';
import type { AdminsStore } from '../repositories/admins.repository';
import type { PasswordHasher } from '../repositories/password-hasher';
import type { Totp } from '../repositories/totp';
import type { TotpSecretSealer } from '../repositories/totp-secret-sealer';

/** An admin's password: longer than a user's, since it opens every account. */
export const adminPasswordPolicy = { min: 12, max: 128 } as const;

export const newAdminSchema = z.object({
  email: emailSchema,
  name: z.string().trim().min(2).max(100),
  password: z
    .string()
    .min(
      adminPasswordPolicy.min,
      `must have at least ${String(adminPasswordPolicy.min)} characters`,
    )
    .max(adminPasswordPolicy.max)
    .regex(/\p{L}/u, 'must contain a letter')
    .regex(/\p{N}/u, 'must contain a number'),
});
export type NewAdminInput = z.input<typeof newAdminSchema>;

export class AdminEnrolmentError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
    this.name = 'AdminEnrolmentError';
  }
}

/**
 * Creates an admin with a fresh TOTP secret, stored sealed (decision 059). The secret and its
 * otpauth:// URI are returned once, to be put in an authenticator app; never shown again.
 */
export async function enrolAdmin(
  admins: AdminsStore,
  hasher: PasswordHasher,
  totp: Totp,
  sealer: TotpSecretSealer,
  input: NewAdminInput,
): Promise<{ id: string; email: string; secret: string; uri: string }> {
  const parsed = newAdminSchema.safeParse(input);
  if (!parsed.success) {
    throw new AdminEnrolmentError(
      parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
    );
  }
  const { email, name, password } = parsed.data;
  if (await admins.findByEmail(email)) {
    throw new AdminEnrolmentError([`email: an admin with ${email} exists already`]);
  }
  const secret = totp.newSecret();
  const id = randomUUID();
  const sealed = sealer.seal(id, secret);
  const admin = await admins.create({
    id,
    email,
    name,
    passwordHash: await hasher.hash(password),
    totpSecret: sealed.ciphertext,
    totpKeyId: sealed.keyId,
  });
  return { id: admin.id, email: admin.email, secret, uri: totp.uri(admin.email, secret) };
}
