import { generateSecret, generateURI, verify } from 'otplib';

/** TOTP (RFC 6238: SHA-1, six digits, 30 s), through otplib. */
export interface Totp {
  newSecret(): string;
  /** The otpauth:// URI an authenticator app reads (as a QR code or typed in). */
  uri(label: string, secret: string): string;
  /**
   * The time step a code belongs to, if it is valid at `now` give or take one step (a phone's
   * clock drifts) and later than `afterStep`; otherwise undefined.
   */
  verify(
    secret: string,
    code: string,
    now: Date,
    afterStep: number | null,
  ): Promise<number | undefined>;
}

const issuer = 'Tradebot Soporte';

export const otplibTotp: Totp = {
  newSecret: () => generateSecret(),
  uri: (label, secret) => generateURI({ issuer, label, secret }),
  async verify(secret, code, now, afterStep) {
    const result = await verify({
      secret,
      token: code,
      epoch: Math.floor(now.getTime() / 1000),
      epochTolerance: 30,
      ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
    });
    return result.valid && 'timeStep' in result ? result.timeStep : undefined;
  },
};
