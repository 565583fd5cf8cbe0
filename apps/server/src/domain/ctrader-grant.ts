import { z } from 'zod';
import { DomainError } from './errors';

/**
 * What a cTrader link keeps sealed (decisions 091 and 096): the grant's tokens, never in clear at
 * rest. One schema for every reader (the robot's grants, the refresh, the link), checked after
 * the seal opens (decision 165).
 */
const linkedGrantSchema = z.object({
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1),
});

/** An authorisation's grant, sealed until the user picks one of its accounts: with its expiry. */
const authorizedGrantSchema = linkedGrantSchema.extend({ expiresAt: z.iso.datetime() });

export type LinkedGrantTokens = z.infer<typeof linkedGrantSchema>;

export interface AuthorizedGrantTokens extends LinkedGrantTokens {
  readonly expiresAt: Date;
}

/**
 * A linked cTrader account as the robot trades it: the main thread opens the sealed grant and
 * sends it across the port, never to a log (decision 096).
 */
export interface CTraderGrant {
  readonly accountId: string;
  readonly ctidTraderAccountId: number;
  readonly accessToken: string;
  readonly live: boolean;
}

/**
 * A sealed cTrader grant opened, but not a grant: not JSON, or a token or the expiry missing.
 * It carries no part of what was opened (a token may be in it), so it can be logged. Answered as
 * "no authorisation under way" (the user starts the link again).
 */
export class MalformedCTraderGrant extends DomainError {
  constructor() {
    super('linking.noAuthorization');
  }
}

function parsed<T>(opened: string, schema: z.ZodType<T>): T {
  let json: unknown;
  try {
    json = JSON.parse(opened);
  } catch {
    // The parser's message quotes the text: it is not kept.
    throw new MalformedCTraderGrant();
  }
  const result = schema.safeParse(json);
  if (!result.success) throw new MalformedCTraderGrant();
  return result.data;
}

/** A linked account's grant, as its seal opened. */
export function linkedGrantOf(opened: string): LinkedGrantTokens {
  return parsed(opened, linkedGrantSchema);
}

/** An authorisation's grant, as its seal opened. */
export function authorizedGrantOf(opened: string): AuthorizedGrantTokens {
  const grant = parsed(opened, authorizedGrantSchema);
  return { ...grant, expiresAt: new Date(grant.expiresAt) };
}
