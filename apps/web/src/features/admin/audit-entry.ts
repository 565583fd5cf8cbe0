import {
  adminSignInFailures,
  type AdminAuditEntry,
  type AdminSignInFailure,
} from '@tradebot/contract';

/** What an audit-log row says in its "who", "what" and "about" cells. */
export interface AuditEntryText {
  who: string;
  /** A second line under `who` (the admin's e-mail), if any. */
  whoDetail: string | null;
  what: string;
  target: string;
}

/** The `admin` namespace's translate function, as the console's screens have it. */
type Translate = (key: string, options?: Record<string, string>) => string;

const isFailure = (value: unknown): value is AdminSignInFailure =>
  typeof value === 'string' && (adminSignInFailures as readonly string[]).includes(value);

/**
 * The text of an audit-log row. A failed sign-in (decision 079) names its reason and the
 * address it came from; when the e-mail was no admin's, the row has no admin, only a digest
 * of what was typed.
 */
export function auditEntryText(entry: AdminAuditEntry, t: Translate): AuditEntryText {
  const who = entry.admin
    ? { who: entry.admin.name, whoDetail: entry.admin.email }
    : // A user's own action (decision 153: "download my data") has no admin either.
      entry.action === 'user.data_exported'
      ? { who: t('audit.theUser'), whoDetail: null }
      : { who: t('audit.unknownEmail'), whoDetail: null };
  if (entry.action === 'admin.sign_in_failed') {
    const { reason, address, emailDigest } = entry.after ?? {};
    return {
      ...who,
      ...(typeof emailDigest === 'string'
        ? { whoDetail: t('audit.emailDigest', { digest: emailDigest }) }
        : {}),
      what: t('audit.signInFailed', {
        reason: t(`audit.signInFailures.${isFailure(reason) ? reason : 'other'}`),
      }),
      target: typeof address === 'string' ? t('audit.fromAddress', { address }) : '',
    };
  }
  return {
    ...who,
    what: t(`audit.actions.${entry.action}`),
    target: `${entry.targetType}${entry.targetId ? ` ${entry.targetId}` : ''}`,
  };
}
