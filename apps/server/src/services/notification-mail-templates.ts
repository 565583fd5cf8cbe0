import type { AccountKind, CloseReasonCode, Language } from '@tradebot/contract';
import { translator } from '../i18n';
import { renderMail } from '../mail/layout';
import type { MailMessage } from '../repositories/mail.repository';
import { isMoneyNotice, type OutboxRow } from '../repositories/notifications.repository';
import type { MoneyNoticeFacts } from '../domain/money-notices';
import { moneyNoticeContent, moneyNoticeMail } from './money-notice-mail-templates';

/** An operation as the outbox keeps it (decision 088): what an e-mail shows of it. */
export interface OperationNotice {
  readonly id: string;
  readonly name: string;
  readonly side: 'buy' | 'sale';
  readonly lots: number;
  readonly openPrice: number;
  readonly closePrice: number | null;
  /** In `currency`; the live mark when opened (0), the result when closed. */
  readonly profit: number;
  readonly closeReason: CloseReasonCode | null;
  /** ISO 4217, the account's (decision 097); absent in notices recorded before: USD. */
  readonly currency?: string;
}

export const robotStopReasons = [
  'daily_loss_limit',
  'kill_switch',
  'access_ended',
  'broker_reconnect_needed',
] as const;
export type RobotStopReason = (typeof robotStopReasons)[number];

export interface MarginNotice {
  readonly equity: number;
  readonly usedMargin: number;
  readonly freeMargin: number;
  /** equity / used margin, in percent. */
  readonly marginLevel: number;
  /** ISO 4217, the account's (decision 097); absent in notices recorded before: USD. */
  readonly currency?: string;
}

export interface DaySummary {
  /** The user's local date, YYYY-MM-DD. */
  readonly date: string;
  readonly closed: number;
  readonly won: number;
  readonly lost: number;
  /** Realised by the day's closed operations, positive or negative, in `currency`. */
  readonly profit: number;
  readonly balance: number;
  readonly equity: number;
  readonly open: number;
  /** ISO 4217, the account's (decision 097); absent in summaries recorded before: USD. */
  readonly currency?: string;
}

const locales: Record<Language, string> = { es: 'es-AR', pt: 'pt-BR' };

/** An amount in the account's currency ("BRL 1.234,50"), with its ISO code: never a bare "$". */
const money = (language: Language, value: number, currency = 'USD', signed = false) =>
  new Intl.NumberFormat(locales[language], {
    style: 'currency',
    currency,
    currencyDisplay: 'code',
    ...(signed ? { signDisplay: 'exceptZero' } : {}),
  }).format(value);

const number = (language: Language, value: number, digits = 5) =>
  new Intl.NumberFormat(locales[language], { maximumFractionDigits: digits }).format(value);

const longDate = (language: Language, date: string) =>
  new Intl.DateTimeFormat(locales[language], {
    dateStyle: 'full',
    timeZone: 'UTC',
  }).format(new Date(`${date}T12:00:00Z`));

export interface NotificationLinks {
  readonly dashboard: string;
  readonly settings: string;
  /** Where a money notice sends the user: the plans, the card, cancelling (decision 148). */
  readonly payment: string;
}

/**
 * One e-mail for the rows of one delivery (decision 088): a batch of operations opened and
 * closed, or one event. Figures as they are, good or bad; never a promise. The footer says what
 * the figures are by where the account lives (decision 097), and where to turn the mails off.
 */
export function notificationMail(
  language: Language,
  to: string,
  name: string,
  rows: readonly OutboxRow[],
  links: NotificationLinks,
  accountKind: AccountKind,
): Promise<MailMessage> {
  const first = rows[0];
  if (first && isMoneyNotice(first.kind)) {
    return moneyNoticeMail(
      language,
      to,
      name,
      first.payload as unknown as MoneyNoticeFacts,
      links.payment,
    );
  }
  const t = translator(language);
  const { subject, lines } = notificationContent(language, rows);
  return renderMail({
    language,
    to,
    subject,
    blocks: [
      { p: t('greeting', { name }) },
      ...lines.map((line) => ({ p: line })),
      { button: t('notification.dashboardButton'), href: links.dashboard },
    ],
    footer: [
      { p: t(`notification.accountKind.${accountKind}`) },
      { p: t('notification.risk') },
      { p: t('notification.why') },
      { button: t('notification.settingsButton'), href: links.settings },
      { p: t('signature') },
    ],
  });
}

/** The same delivery as a push notification: the subject, its first line, the dashboard. */
export function notificationPush(
  language: Language,
  rows: readonly OutboxRow[],
  links: NotificationLinks,
): { title: string; body: string; url: string } {
  const { subject, lines } = notificationContent(language, rows);
  const money = rows[0] !== undefined && isMoneyNotice(rows[0].kind);
  return {
    title: subject,
    body: lines.slice(0, 2).join(' '),
    url: money ? links.payment : links.dashboard,
  };
}

/** What a delivery says: its subject and its lines, before the greeting and the footer. */
function notificationContent(
  language: Language,
  rows: readonly OutboxRow[],
): { subject: string; lines: string[] } {
  const t = translator(language);
  const first = rows[0];
  if (!first) throw new Error('a delivery without rows');
  const lines: string[] = [];
  let subject: string;
  switch (first.kind) {
    case 'operation_opened':
    case 'operation_closed': {
      const opened = rows.filter((row) => row.kind === 'operation_opened').length;
      const closed = rows.filter((row) => row.kind === 'operation_closed').length;
      subject = t('notification.operationsSubject', {
        opened: t('notification.openedCount', { count: opened }),
        closed: t('notification.closedCount', { count: closed }),
      });
      lines.push(t('notification.operationsIntro'));
      for (const row of rows) {
        const trade = row.payload as unknown as OperationNotice;
        const side = t(`notification.sides.${trade.side}`);
        lines.push(
          row.kind === 'operation_opened'
            ? t('notification.opened', {
                side,
                name: trade.name,
                lots: number(language, trade.lots, 2),
                price: number(language, trade.openPrice),
              })
            : t('notification.closed', {
                side,
                name: trade.name,
                price: number(language, trade.closePrice ?? trade.openPrice),
                profit: money(language, trade.profit, trade.currency, true),
                reason: t(`notification.reasons.${trade.closeReason ?? 'tp'}`),
              }),
        );
      }
      break;
    }
    case 'stop_loss': {
      const trade = first.payload as unknown as OperationNotice;
      subject = t('notification.stopLossSubject', { name: trade.name });
      lines.push(
        t('notification.stopLossIntro', {
          name: trade.name,
          profit: money(language, trade.profit, trade.currency, true),
        }),
        t('notification.stopLossWhy'),
      );
      break;
    }
    case 'robot_stopped': {
      const { reason, closed } = first.payload as { reason: RobotStopReason; closed?: number };
      subject = t('notification.robotStoppedSubject');
      lines.push(t(`notification.robotStopped.${reason}`));
      if (reason === 'kill_switch' && closed !== undefined && closed > 0) {
        lines.push(t('notification.killClosed', { count: closed }));
      }
      break;
    }
    case 'margin_warning': {
      const margin = first.payload as unknown as MarginNotice;
      subject = t('notification.marginSubject');
      lines.push(
        t('notification.marginIntro', { level: `${number(language, margin.marginLevel, 0)} %` }),
        t('notification.marginFigures', {
          equity: money(language, margin.equity, margin.currency),
          used: money(language, margin.usedMargin, margin.currency),
          free: money(language, margin.freeMargin, margin.currency),
        }),
        t('notification.marginWhat'),
      );
      break;
    }
    case 'renewal_notice':
    case 'free_month_ending':
    case 'payment_failed':
      return moneyNoticeContent(language, first.payload as unknown as MoneyNoticeFacts);
    case 'daily_summary': {
      const day = first.payload as unknown as DaySummary;
      subject = t('notification.summarySubject', { date: longDate(language, day.date) });
      lines.push(
        day.closed > 0
          ? t('notification.summaryClosed', { count: day.closed, won: day.won, lost: day.lost })
          : t('notification.summaryNone'),
        t('notification.summaryProfit', {
          profit: money(language, day.profit, day.currency, true),
        }),
        t('notification.summaryAccount', {
          balance: money(language, day.balance, day.currency),
          equity: money(language, day.equity, day.currency),
          open: day.open,
        }),
      );
      break;
    }
  }
  return { subject, lines };
}
