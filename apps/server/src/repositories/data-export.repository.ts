import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import {
  brokerGifts,
  contactMessages,
  contactReplies,
  ctraderAuthorizations,
  emailChanges,
  emailSubscriptions,
  notificationSettings,
  operations,
  payments,
  platformAccounts,
  platformDeposits,
  platformUnlinks,
  platformUsers,
  promoCodeUses,
  pushSubscriptions,
  sessions,
  subscriptions,
  tradingPlatformLinks,
  userConsents,
  userSettings,
  users,
} from '../db/schema';

/**
 * Everything we hold about one user, section by section, as plain rows (decision 153). Each
 * column is named here on purpose: a column added to a table later stays out of the export
 * until someone decides it belongs, so no hash, token, sealed grant or credential can slip in.
 */
export interface UserDataSections {
  profile: Record<string, unknown>;
  robotSettings: Record<string, unknown> | null;
  consents: Record<string, unknown>[];
  sessions: Record<string, unknown>[];
  emailChanges: Record<string, unknown>[];
  freeMonthForm: Record<string, unknown>[];
  promoCodes: Record<string, unknown>[];
  subscriptions: Record<string, unknown>[];
  payments: Record<string, unknown>[];
  brokerGifts: Record<string, unknown>[];
  brokerLinks: Record<string, unknown>[];
  brokerAuthorizations: Record<string, unknown>[];
  brokerUnlinks: Record<string, unknown>[];
  platformAccount: Record<string, unknown> | null;
  platformLogin: Record<string, unknown> | null;
  deposits: Record<string, unknown>[];
  operations: Record<string, unknown>[];
  notificationSettings: Record<string, unknown> | null;
  pushSubscriptions: Record<string, unknown>[];
  supportMessages: Record<string, unknown>[];
}

export interface DataExportStore {
  /** Undefined when the user does not exist (or was deleted). */
  collect(userId: string): Promise<UserDataSections | undefined>;
}

export class DrizzleDataExportStore implements DataExportStore {
  constructor(private readonly db: Db) {}

  async collect(userId: string): Promise<UserDataSections | undefined> {
    const { db } = this;
    const [profile] = await db
      .select({
        name: users.name,
        lastName: users.lastName,
        email: users.email,
        phone: users.phone,
        language: users.language,
        subscribedNewsletter: users.subscribedNewsletter,
        partnerId: users.partnerId,
        clientSource: users.clientSource,
        referral: users.referral,
        promocode: users.promocode,
        createdAt: users.createdAt,
        updatedAt: users.updatedAt,
      })
      .from(users)
      .where(eq(users.id, userId));
    if (!profile) return undefined;
    const messages = await db
      .select({
        id: contactMessages.id,
        kind: contactMessages.kind,
        subject: contactMessages.subject,
        body: contactMessages.body,
        language: contactMessages.language,
        status: contactMessages.status,
        createdAt: contactMessages.createdAt,
        answeredAt: contactMessages.answeredAt,
      })
      .from(contactMessages)
      .where(eq(contactMessages.userId, userId))
      .orderBy(asc(contactMessages.createdAt));
    const replies = messages.length
      ? await db
          .select({
            messageId: contactReplies.messageId,
            body: contactReplies.body,
            createdAt: contactReplies.createdAt,
          })
          .from(contactReplies)
          .where(
            inArray(
              contactReplies.messageId,
              messages.map((message) => message.id),
            ),
          )
          .orderBy(asc(contactReplies.createdAt))
      : [];
    const [
      settings,
      consents,
      sessionRows,
      changes,
      freeMonth,
      codes,
      subscriptionRows,
      paymentRows,
      gifts,
      links,
      authorizations,
      unlinks,
      account,
      platformLogin,
      deposits,
      operationRows,
      notices,
      push,
    ] = await Promise.all([
      db
        .select({
          botOn: userSettings.botOn,
          risk: userSettings.risk,
          categoriesEnabled: userSettings.categoriesEnabled,
          linked: userSettings.linked,
          authorized: userSettings.authorized,
          updatedAt: userSettings.updatedAt,
        })
        .from(userSettings)
        .where(eq(userSettings.userId, userId)),
      db
        .select({
          purpose: userConsents.purpose,
          granted: userConsents.granted,
          policyVersion: userConsents.policyVersion,
          language: userConsents.language,
          source: userConsents.source,
          givenAt: userConsents.givenAt,
        })
        .from(userConsents)
        .where(eq(userConsents.userId, userId))
        .orderBy(asc(userConsents.givenAt)),
      // The session's id names it in the sessions list; its token is kept only as a hash, left out.
      db
        .select({
          id: sessions.id,
          device: sessions.userAgent,
          createdAt: sessions.createdAt,
          lastUsedAt: sessions.lastUsedAt,
          expiresAt: sessions.expiresAt,
          revokedAt: sessions.revokedAt,
        })
        .from(sessions)
        .where(eq(sessions.userId, userId))
        .orderBy(asc(sessions.createdAt)),
      db
        .select({
          oldEmail: emailChanges.oldEmail,
          newEmail: emailChanges.newEmail,
          expiresAt: emailChanges.expiresAt,
          confirmedAt: emailChanges.confirmedAt,
          cancelledAt: emailChanges.cancelledAt,
        })
        .from(emailChanges)
        .where(eq(emailChanges.userId, userId)),
      db
        .select({
          email: emailSubscriptions.email,
          promo: emailSubscriptions.promo,
          language: emailSubscriptions.language,
          createdAt: emailSubscriptions.createdAt,
          codeMailedAt: emailSubscriptions.codeMailedAt,
        })
        .from(emailSubscriptions)
        .where(eq(sql`lower(${emailSubscriptions.email})`, profile.email.toLowerCase())),
      db
        .select({
          code: promoCodeUses.code,
          benefit: promoCodeUses.benefit,
          source: promoCodeUses.source,
          usedAt: promoCodeUses.usedAt,
        })
        .from(promoCodeUses)
        .where(eq(promoCodeUses.userId, userId)),
      db
        .select({
          provider: subscriptions.provider,
          plan: subscriptions.plan,
          status: subscriptions.status,
          startedAt: subscriptions.startedAt,
          currentPeriodStart: subscriptions.currentPeriodStart,
          currentPeriodEnd: subscriptions.currentPeriodEnd,
          cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd,
          accessUntil: subscriptions.accessUntil,
          nextPaymentAttemptAt: subscriptions.nextPaymentAttemptAt,
          endedAt: subscriptions.endedAt,
          refundedAt: subscriptions.refundedAt,
        })
        .from(subscriptions)
        .where(eq(subscriptions.userId, userId)),
      db
        .select({
          provider: payments.provider,
          providerPaymentId: payments.providerPaymentId,
          plan: payments.plan,
          amountCents: payments.amountCents,
          currency: payments.currency,
          paidAt: payments.paidAt,
          periodStart: payments.periodStart,
          periodEnd: payments.periodEnd,
          cardBrand: payments.cardBrand,
          cardLast4: payments.cardLast4,
          refundedAt: payments.refundedAt,
          refundReason: payments.refundReason,
          receiptSentAt: payments.receiptSentAt,
        })
        .from(payments)
        .where(eq(payments.userId, userId))
        .orderBy(asc(payments.paidAt)),
      db
        .select({
          cents: brokerGifts.cents,
          status: brokerGifts.status,
          owedAt: brokerGifts.owedAt,
          grantedAt: brokerGifts.grantedAt,
        })
        .from(brokerGifts)
        .where(eq(brokerGifts.userId, userId)),
      // Without the sealed credentials and the token's expiry: the link, not its secrets.
      db
        .select({
          platform: tradingPlatformLinks.platform,
          platformAccountId: tradingPlatformLinks.platformAccountId,
          brokerAccount: tradingPlatformLinks.brokerAccount,
          linkedAt: tradingPlatformLinks.linkedAt,
          loggedInAt: tradingPlatformLinks.loggedInAt,
        })
        .from(tradingPlatformLinks)
        .where(eq(tradingPlatformLinks.userId, userId)),
      // An authorisation under way: the accounts cTrader granted, never the sealed grant.
      db
        .select({
          accounts: ctraderAuthorizations.accounts,
          expiresAt: ctraderAuthorizations.expiresAt,
          returnedAt: ctraderAuthorizations.returnedAt,
        })
        .from(ctraderAuthorizations)
        .where(eq(ctraderAuthorizations.userId, userId)),
      db
        .select({
          platform: platformUnlinks.platform,
          platformAccountId: platformUnlinks.platformAccountId,
          closedPositions: platformUnlinks.closedPositions,
          openPositions: platformUnlinks.openPositions,
          unlinkedAt: platformUnlinks.unlinkedAt,
        })
        .from(platformUnlinks)
        .where(eq(platformUnlinks.userId, userId)),
      db
        .select({
          depositsCents: platformAccounts.depositsCents,
          realisedProfitCents: platformAccounts.realisedProfitCents,
          balanceCents: platformAccounts.balanceCents,
          openedAt: platformAccounts.openedAt,
        })
        .from(platformAccounts)
        .where(eq(platformAccounts.accountId, userId)),
      // The built-in platform's login: its e-mail, never its password hash.
      db
        .select({ email: platformUsers.email })
        .from(platformUsers)
        .where(eq(platformUsers.accountId, userId)),
      db
        .select({
          depositedAt: platformDeposits.depositedAt,
          cents: platformDeposits.cents,
          balanceAfterCents: platformDeposits.balanceAfterCents,
          opening: platformDeposits.opening,
        })
        .from(platformDeposits)
        .where(eq(platformDeposits.accountId, userId))
        .orderBy(asc(platformDeposits.depositedAt)),
      db
        .select({
          positionId: operations.positionId,
          symbol: operations.symbol,
          category: operations.category,
          side: operations.side,
          units: operations.units,
          openedAt: operations.openedAt,
          entryPrice: operations.entryPrice,
          takeProfit: operations.takeProfit,
          stopLoss: operations.stopLoss,
          probability: operations.probability,
          breakEvenProbability: operations.breakEvenProbability,
          marginCents: operations.marginCents,
          closedAt: operations.closedAt,
          closePrice: operations.closePrice,
          closeReason: operations.closeReason,
          profitCents: operations.profitCents,
          currency: operations.currency,
        })
        .from(operations)
        .where(eq(operations.accountId, userId))
        .orderBy(asc(operations.openedAt), asc(operations.positionId)),
      db
        .select({
          operations: notificationSettings.operations,
          stopLoss: notificationSettings.stopLoss,
          robotStopped: notificationSettings.robotStopped,
          marginWarning: notificationSettings.marginWarning,
          dailySummary: notificationSettings.dailySummary,
          timeZone: notificationSettings.timeZone,
        })
        .from(notificationSettings)
        .where(eq(notificationSettings.userId, userId)),
      // The push service's address is a secret of the browser's: only where and when.
      db
        .select({ endpoint: pushSubscriptions.endpoint, createdAt: pushSubscriptions.createdAt })
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.userId, userId)),
    ]);
    return {
      profile,
      robotSettings: settings[0] ?? null,
      consents,
      sessions: sessionRows,
      emailChanges: changes,
      freeMonthForm: freeMonth,
      promoCodes: codes,
      subscriptions: subscriptionRows,
      payments: paymentRows,
      brokerGifts: gifts,
      brokerLinks: links,
      brokerAuthorizations: authorizations,
      brokerUnlinks: unlinks,
      platformAccount: account[0] ?? null,
      platformLogin: platformLogin[0] ?? null,
      deposits,
      operations: operationRows,
      notificationSettings: notices[0] ?? null,
      pushSubscriptions: push.map(({ endpoint, createdAt }) => ({
        pushService: pushServiceOf(endpoint),
        createdAt,
      })),
      supportMessages: messages.map((message) => ({
        ...message,
        replies: replies
          .filter((reply) => reply.messageId === message.id)
          .map(({ body, createdAt }) => ({ body, createdAt })),
      })),
    };
  }
}

/** The host of a push endpoint (fcm.googleapis.com…), without its secret path. */
function pushServiceOf(endpoint: string): string | null {
  try {
    return new URL(endpoint).host;
  } catch {
    return null;
  }
}
