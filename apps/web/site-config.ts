import { z } from 'zod';

/**
 * What the prerendered pages say about the site and its operator, read from the environment
 * when the web app is built (docs/decisions/053): `npm start` builds with the same variables
 * the server runs with. A bad value stops the build with a readable message.
 */
export interface SiteConfig {
  /** Absolute origin of canonical URLs, hreflang alternates, Open Graph and the sitemap. */
  publicUrl: string;
  operator: {
    legalName: string;
    address: string;
    registration: string;
    email: string;
    /** True when no OPERATOR_* variable was set: the footer says these are example values. */
    example: boolean;
  };
  /**
   * Where visitors write for help (issue 23: the FAQ and the footer give it to people without
   * an account). SUPPORT_EMAIL, the inbox the server sends contact messages to (decision 056);
   * without it, the operator's e-mail. Null when neither is set (the embedded demo): no address
   * is made up, and the pages point to the contact form instead (issue 39).
   */
  supportEmail: string | null;
}

/**
 * The embedded demo's operator: invented, and shown as an example wherever it appears. Its
 * address is in the `.example` domain reserved for examples (RFC 2606), which nobody can own.
 */
export const exampleOperator: SiteConfig['operator'] = {
  legalName: 'Tradebot Demo S.A.S.',
  address: 'Av. Ejemplo 1234, Montevideo, Uruguay',
  registration: 'RUT 000000000000',
  email: 'contacto@tradebot-demo.example',
  example: true,
};

const operatorKeys = [
  'OPERATOR_LEGAL_NAME',
  'OPERATOR_ADDRESS',
  'OPERATOR_REGISTRATION',
  'OPERATOR_EMAIL',
] as const;

const text = z.string().trim().min(2).max(200);

const schema = z.object({
  PUBLIC_URL: z
    .url({ protocol: /^https?$/ })
    .transform((value) => new URL(value))
    .refine((url) => url.pathname === '/' && !url.search && !url.hash, {
      message: 'must be an origin only, e.g. https://app.example.com (the app serves from /)',
    })
    .transform((url) => url.origin)
    .default('http://127.0.0.1:8080'),
  OPERATOR_LEGAL_NAME: text.optional(),
  OPERATOR_ADDRESS: text.optional(),
  OPERATOR_REGISTRATION: text.optional(),
  OPERATOR_EMAIL: z.email().optional(),
  SUPPORT_EMAIL: z.email().optional(),
});

export function readSiteConfig(env: Record<string, string | undefined>): SiteConfig {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ''),
  );
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid site configuration for the web build:\n${lines.join('\n')}`);
  }
  const values = parsed.data;
  const given = operatorKeys.filter((key) => values[key] !== undefined);
  if (given.length > 0 && given.length < operatorKeys.length) {
    const missing = operatorKeys.filter((key) => values[key] === undefined);
    throw new Error(
      `Invalid site configuration for the web build: set every operator variable or none ` +
        `(missing ${missing.join(', ')})`,
    );
  }
  return {
    publicUrl: values.PUBLIC_URL,
    supportEmail: values.SUPPORT_EMAIL ?? values.OPERATOR_EMAIL ?? null,
    operator:
      given.length === 0
        ? exampleOperator
        : {
            legalName: values.OPERATOR_LEGAL_NAME ?? '',
            address: values.OPERATOR_ADDRESS ?? '',
            registration: values.OPERATOR_REGISTRATION ?? '',
            email: values.OPERATOR_EMAIL ?? '',
            example: false,
          },
  };
}
