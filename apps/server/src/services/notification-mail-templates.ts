import type { AccountKind, Language } from '@tradebot/contract';
import type { MailMessage } from '../repositories/mail.repository';
import type { OutboxRow } from '../repositories/notifications.repository';
import { linkMail, type Part } from './registration-mail-templates';

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
  readonly closeReason: 'tp' | 'sl' | 'closeout' | 'kill' | null;
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

interface NotificationCopy {
  greeting: (name: string) => string;
  operationsSubject: (opened: number, closed: number) => string;
  operationsIntro: string;
  opened: (side: string, name: string, lots: string, price: string) => string;
  closed: (side: string, name: string, price: string, profit: string, reason: string) => string;
  sides: Record<OperationNotice['side'], string>;
  reasons: Record<NonNullable<OperationNotice['closeReason']>, string>;
  stopLossSubject: (name: string) => string;
  stopLossIntro: (name: string, profit: string) => string;
  stopLossWhy: string;
  robotStoppedSubject: string;
  robotStopped: Record<RobotStopReason, string>;
  killClosed: (count: number) => string;
  marginSubject: string;
  marginIntro: (level: string) => string;
  marginFigures: (equity: string, used: string, free: string) => string;
  marginWhat: string;
  summarySubject: (date: string) => string;
  summaryClosed: (closed: number, won: number, lost: number) => string;
  summaryNone: string;
  summaryProfit: (profit: string) => string;
  summaryAccount: (balance: string, equity: string, open: number) => string;
  dashboardButton: string;
  settingsButton: string;
  /** What the e-mail's figures are, by where the account lives (decision 097). */
  accountKind: Record<AccountKind, string>;
  risk: string;
  why: string;
  signature: string;
}

const copy: Record<Language, NotificationCopy> = {
  es: {
    greeting: (name) => `Hola, ${name}:`,
    operationsSubject: (opened, closed) =>
      `Tu robot: ${opened} ${opened === 1 ? 'operación abierta' : 'operaciones abiertas'}, ${closed} ${closed === 1 ? 'cerrada' : 'cerradas'}`,
    operationsIntro: 'El robot movió tu cuenta:',
    opened: (side, name, lots, price) => `Abrió: ${side} ${name}, ${lots} lotes a ${price}.`,
    closed: (side, name, price, profit, reason) =>
      `Cerró: ${side} ${name} a ${price}, ${reason}. Resultado: ${profit}.`,
    sides: { buy: 'compra de', sale: 'venta de' },
    reasons: {
      tp: 'al alcanzar el objetivo',
      sl: 'en el stop-loss',
      closeout: 'por falta de margen',
      kill: 'por la parada de emergencia',
    },
    stopLossSubject: (name) => `Stop-loss en ${name}`,
    stopLossIntro: (name, profit) =>
      `Una operación en ${name} se cerró en su stop-loss. Resultado: ${profit}.`,
    stopLossWhy:
      'El stop-loss limita la pérdida de cada operación; el robot sigue operando según tu nivel de riesgo.',
    robotStoppedSubject: 'Tu robot se detuvo',
    robotStopped: {
      daily_loss_limit:
        'Tu robot dejó de abrir operaciones por hoy: alcanzó el límite de pérdida diaria de tu nivel de riesgo. Vuelve a operar mañana (hora UTC).',
      kill_switch:
        'Tu robot se apagó con la parada de emergencia: no abrirá operaciones nuevas hasta que lo enciendas.',
      access_ended:
        'Tu acceso terminó, así que tu robot no abre operaciones nuevas ni puede encenderse hasta que pagues. Puedes ver tus operaciones abiertas y cerrarlas.',
      broker_reconnect_needed:
        'Tu bróker cTrader desconectó a Tradebot: ya no acepta su autorización (venció o la retiraste). Tu robot no abre operaciones nuevas allí; las abiertas siguen en el bróker con su stop loss y take profit. Para reconectarla, desvincula tu cuenta en Configuración de la cuenta y vuelve a vincularla con cTrader.',
    },
    killClosed: (count) =>
      count === 1 ? 'Se cerró 1 operación abierta.' : `Se cerraron ${count} operaciones abiertas.`,
    marginSubject: 'Aviso de margen en tu cuenta',
    marginIntro: (level) =>
      `El nivel de margen de tu cuenta bajó a ${level}. Si baja al 50 %, la plataforma cierra operaciones, empezando por la que más pierde.`,
    marginFigures: (equity, used, free) =>
      `Capital: ${equity}. Margen usado: ${used}. Margen libre: ${free}.`,
    marginWhat:
      'Puedes esperar, bajar tu nivel de riesgo o cerrar todo desde la configuración del robot.',
    summarySubject: (date) => `Tu resumen del ${date}`,
    summaryClosed: (closed, won, lost) =>
      `Hoy se ${closed === 1 ? 'cerró 1 operación' : `cerraron ${closed} operaciones`}: ${won} con ganancia y ${lost} con pérdida.`,
    summaryNone: 'Hoy no se cerró ninguna operación.',
    summaryProfit: (profit) => `Resultado del día: ${profit}.`,
    summaryAccount: (balance, equity, open) =>
      `Saldo: ${balance}. Capital: ${equity}. Operaciones abiertas: ${open}.`,
    dashboardButton: 'Ver mi panel',
    settingsButton: 'Elegir qué avisos recibo',
    accountKind: {
      simulated:
        'Cifras de tu cuenta en la plataforma simulada de Tradebot: el dinero es simulado.',
      demo: 'Cifras de tu cuenta demo en tu bróker cTrader: dinero simulado del bróker, con sus precios.',
      live: 'Cifras de tu cuenta real en tu bróker cTrader: el robot opera con tu dinero y puedes perderlo.',
    },
    risk: 'Invertir implica riesgos. El robot no garantiza ganancias y los resultados pasados no aseguran resultados futuros.',
    why: 'Recibes este aviso porque lo activaste (o lo dejaste activado) en la configuración de tu robot.',
    signature: 'El equipo de Tradebot',
  },
  pt: {
    greeting: (name) => `Olá, ${name}:`,
    operationsSubject: (opened, closed) =>
      `Seu robô: ${opened} ${opened === 1 ? 'operação aberta' : 'operações abertas'}, ${closed} ${closed === 1 ? 'fechada' : 'fechadas'}`,
    operationsIntro: 'O robô movimentou sua conta:',
    opened: (side, name, lots, price) => `Abriu: ${side} ${name}, ${lots} lotes a ${price}.`,
    closed: (side, name, price, profit, reason) =>
      `Fechou: ${side} ${name} a ${price}, ${reason}. Resultado: ${profit}.`,
    sides: { buy: 'compra de', sale: 'venda de' },
    reasons: {
      tp: 'ao atingir o alvo',
      sl: 'no stop-loss',
      closeout: 'por falta de margem',
      kill: 'pela parada de emergência',
    },
    stopLossSubject: (name) => `Stop-loss em ${name}`,
    stopLossIntro: (name, profit) =>
      `Uma operação em ${name} foi fechada no stop-loss. Resultado: ${profit}.`,
    stopLossWhy:
      'O stop-loss limita a perda de cada operação; o robô continua operando conforme seu nível de risco.',
    robotStoppedSubject: 'Seu robô parou',
    robotStopped: {
      daily_loss_limit:
        'Seu robô parou de abrir operações por hoje: atingiu o limite de perda diária do seu nível de risco. Ele volta a operar amanhã (horário UTC).',
      kill_switch:
        'Seu robô foi desligado com a parada de emergência: não abrirá operações novas até que você o ligue.',
      access_ended:
        'Seu acesso terminou, então seu robô não abre operações novas nem pode ser ligado até que você pague. Você pode ver suas operações abertas e fechá-las.',
      broker_reconnect_needed:
        'Sua corretora cTrader desconectou a Tradebot: não aceita mais a autorização dela (venceu ou você a retirou). Seu robô não abre operações novas lá; as abertas continuam na corretora com stop loss e take profit. Para reconectá-la, desvincule sua conta em Configurações da conta e vincule-a de novo com a cTrader.',
    },
    killClosed: (count) =>
      count === 1 ? '1 operação aberta foi fechada.' : `${count} operações abertas foram fechadas.`,
    marginSubject: 'Aviso de margem na sua conta',
    marginIntro: (level) =>
      `O nível de margem da sua conta caiu para ${level}. Se cair a 50 %, a plataforma fecha operações, começando pela que mais perde.`,
    marginFigures: (equity, used, free) =>
      `Patrimônio: ${equity}. Margem usada: ${used}. Margem livre: ${free}.`,
    marginWhat:
      'Você pode esperar, baixar seu nível de risco ou fechar tudo na configuração do robô.',
    summarySubject: (date) => `Seu resumo de ${date}`,
    summaryClosed: (closed, won, lost) =>
      `Hoje ${closed === 1 ? '1 operação foi fechada' : `${closed} operações foram fechadas`}: ${won} com lucro e ${lost} com perda.`,
    summaryNone: 'Hoje nenhuma operação foi fechada.',
    summaryProfit: (profit) => `Resultado do dia: ${profit}.`,
    summaryAccount: (balance, equity, open) =>
      `Saldo: ${balance}. Patrimônio: ${equity}. Operações abertas: ${open}.`,
    dashboardButton: 'Ver meu painel',
    settingsButton: 'Escolher quais avisos recebo',
    accountKind: {
      simulated: 'Valores da sua conta na plataforma simulada do Tradebot: o dinheiro é simulado.',
      demo: 'Valores da sua conta demo na sua corretora cTrader: dinheiro simulado da corretora, com os preços dela.',
      live: 'Valores da sua conta real na sua corretora cTrader: o robô opera com o seu dinheiro e você pode perdê-lo.',
    },
    risk: 'Investir envolve riscos. O robô não garante lucro e resultados passados não asseguram resultados futuros.',
    why: 'Você recebe este aviso porque o ativou (ou o deixou ativado) na configuração do seu robô.',
    signature: 'Equipe Tradebot',
  },
};

export interface NotificationLinks {
  readonly dashboard: string;
  readonly settings: string;
}

/**
 * One e-mail for the rows of one delivery (decision 088): a batch of operations opened and
 * closed, or one event. Figures as they are, good or bad; never a promise.
 */
export function notificationMail(
  language: Language,
  to: string,
  name: string,
  rows: readonly OutboxRow[],
  links: NotificationLinks,
  accountKind: AccountKind,
): MailMessage {
  const text = copy[language];
  const { subject, lines } = notificationContent(language, rows);
  const parts: Part[] = [{ text: text.greeting(name) }, ...lines.map((line) => ({ text: line }))];
  parts.push(
    { link: links.dashboard, label: text.dashboardButton },
    { text: text.accountKind[accountKind] },
    { text: text.risk },
    { text: text.why },
    { link: links.settings, label: text.settingsButton },
    { text: text.signature },
  );
  return linkMail(language, to, subject, parts);
}

/** The same delivery as a push notification: the subject, its first line, the dashboard. */
export function notificationPush(
  language: Language,
  rows: readonly OutboxRow[],
  links: NotificationLinks,
): { title: string; body: string; url: string } {
  const { subject, lines } = notificationContent(language, rows);
  return { title: subject, body: lines.slice(0, 2).join(' '), url: links.dashboard };
}

/** What a delivery says: its subject and its lines, before the greeting and the footer. */
function notificationContent(
  language: Language,
  rows: readonly OutboxRow[],
): { subject: string; lines: string[] } {
  const text = copy[language];
  const first = rows[0];
  if (!first) throw new Error('a delivery without rows');
  const parts: { text: string }[] = [];
  let subject: string;
  switch (first.kind) {
    case 'operation_opened':
    case 'operation_closed': {
      const opened = rows.filter((row) => row.kind === 'operation_opened');
      const closed = rows.filter((row) => row.kind === 'operation_closed');
      subject = text.operationsSubject(opened.length, closed.length);
      parts.push({ text: text.operationsIntro });
      for (const row of rows) {
        const trade = row.payload as unknown as OperationNotice;
        const side = text.sides[trade.side];
        parts.push({
          text:
            row.kind === 'operation_opened'
              ? text.opened(
                  side,
                  trade.name,
                  number(language, trade.lots, 2),
                  number(language, trade.openPrice),
                )
              : text.closed(
                  side,
                  trade.name,
                  number(language, trade.closePrice ?? trade.openPrice),
                  money(language, trade.profit, trade.currency, true),
                  text.reasons[trade.closeReason ?? 'tp'],
                ),
        });
      }
      break;
    }
    case 'stop_loss': {
      const trade = first.payload as unknown as OperationNotice;
      subject = text.stopLossSubject(trade.name);
      parts.push({
        text: text.stopLossIntro(trade.name, money(language, trade.profit, trade.currency, true)),
      });
      parts.push({ text: text.stopLossWhy });
      break;
    }
    case 'robot_stopped': {
      const { reason, closed } = first.payload as { reason: RobotStopReason; closed?: number };
      subject = text.robotStoppedSubject;
      parts.push({ text: text.robotStopped[reason] });
      if (reason === 'kill_switch' && closed !== undefined && closed > 0) {
        parts.push({ text: text.killClosed(closed) });
      }
      break;
    }
    case 'margin_warning': {
      const margin = first.payload as unknown as MarginNotice;
      subject = text.marginSubject;
      parts.push({ text: text.marginIntro(`${number(language, margin.marginLevel, 0)} %`) });
      parts.push({
        text: text.marginFigures(
          money(language, margin.equity, margin.currency),
          money(language, margin.usedMargin, margin.currency),
          money(language, margin.freeMargin, margin.currency),
        ),
      });
      parts.push({ text: text.marginWhat });
      break;
    }
    case 'daily_summary': {
      const day = first.payload as unknown as DaySummary;
      subject = text.summarySubject(longDate(language, day.date));
      parts.push({
        text: day.closed > 0 ? text.summaryClosed(day.closed, day.won, day.lost) : text.summaryNone,
      });
      parts.push({ text: text.summaryProfit(money(language, day.profit, day.currency, true)) });
      parts.push({
        text: text.summaryAccount(
          money(language, day.balance, day.currency),
          money(language, day.equity, day.currency),
          day.open,
        ),
      });
      break;
    }
  }
  return { subject, lines: parts.map((part) => part.text) };
}
