import { StartupError } from '../startup-error';

/** One value sealed under a key id, and a way to try opening it. */
export interface SealedSample {
  keyId: string;
  /** Throws when the key is unknown or does not open it. */
  open(): unknown;
}

export interface SealedKind {
  /** What is sealed, plural: "admin TOTP secrets". */
  what: string;
  /** Where the keys come from: "ADMIN_TOTP_KEYS" or "the key file /srv/data/secrets/…". */
  keySource: string;
  /** At least one value per key id in use. */
  samples: readonly SealedSample[];
  /** Whether the configured keys hold this id. */
  hasKey(keyId: string): boolean;
}

/**
 * At start, every key id the database uses must be configured and open what it sealed
 * (decisions 059 and 065): a lost key stops the start with one line naming what is sealed, the
 * key id and where the keys come from, never a 500 at the first read. Starting anyway would
 * leave those values unreadable, and a rotation would not help.
 */
export function checkSealedValues(kind: SealedKind): void {
  const missing = new Set<string>();
  const wrong = new Set<string>();
  for (const sample of kind.samples) {
    if (missing.has(sample.keyId) || wrong.has(sample.keyId)) continue;
    if (!kind.hasKey(sample.keyId)) {
      missing.add(sample.keyId);
      continue;
    }
    try {
      sample.open();
    } catch {
      wrong.add(sample.keyId);
    }
  }
  const problems = [
    ...[...missing].map((id) => `key ${id}, which ${kind.keySource} does not hold`),
    ...[...wrong].map(
      (id) => `key ${id}, which ${kind.keySource} holds but which does not open them (another key)`,
    ),
  ];
  if (problems.length === 0) return;
  throw new StartupError(
    `Stored ${kind.what} are sealed with ${problems.join('; and with ')}: put back the keys ` +
      `they were sealed with in ${kind.keySource} (from your backup) and start again; with ` +
      'other keys they cannot be read',
  );
}
