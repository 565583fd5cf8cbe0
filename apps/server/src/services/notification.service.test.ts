import type { Language, NotificationSettings, TradeRow } from '@tradebot/contract';
import { describe, expect, it } from 'vitest';
import type { JobClaims } from '../repositories/job-claims.repository';
import type { MailMessage } from '../repositories/mail.repository';
import type {
  NotificationRecord,
  NotificationsStore,
  OutboxRow,
  Recipient,
} from '../repositories/notifications.repository';
import type { OncePerWindow } from '../repositories/once-per-window.repository';
import type { AccountProjection, RobotEvent } from '../robot/protocol/robot-protocol';
import { NotificationService } from './notification.service';

const now = new Date('2026-11-21T12:00:00Z');
const allOn: NotificationSettings = {
  operations: true,
  stop_loss: true,
  robot_stopped: true,
  margin_warning: true,
  daily_summary: true,
  time_zone: null,
};

const projectionOf = (accountId: string, account: Partial<AccountProjection['account']> = {}) =>
  ({
    accountId,
    currency: 'USD',
    account: { equity: 10_000, usedMargin: 0, freeMargin: 10_000, ...account },
    status: { idleReason: null },
    trades: [],
  }) as unknown as AccountProjection;

const closedTrade = (id: string, closeReason: 'tp' | 'sl') =>
  ({
    id,
    OutputName: 'EUR/USD',
    side: 'buy',
    Amount: 0.01,
    openPrice: 1.1,
    closePrice: 1.09,
    Profit: -10,
    closeReason,
  }) as unknown as TradeRow;

interface RigOptions {
  recipient?: Partial<Recipient> | null;
  /** The delivery's claim is held by another process. */
  claimed?: boolean;
}

/** The service with plain stubs: what it recorded, marked delivered and mailed. */
function rig(options: RigOptions = {}) {
  const recorded: NotificationRecord[] = [];
  const outcomes: string[] = [];
  const mails: MailMessage[] = [];
  let outbox: OutboxRow[] = [];
  const repository = {
    record: (record: NotificationRecord) => {
      recorded.push(record);
      return Promise.resolve(true);
    },
    usersWithUnbatched: () => Promise.resolve([]),
    summaryCandidates: () => Promise.resolve([]),
    recordedKeys: () => Promise.resolve(new Set<string>()),
    dueDeliveries: () => Promise.resolve(outbox.length > 0 ? ['d1'] : []),
    deliveryRows: () => Promise.resolve(outbox),
    recipient: () =>
      Promise.resolve(
        options.recipient === null
          ? undefined
          : {
              email: 'ana@example.com',
              name: 'Ana',
              language: 'es' as Language,
              deleted: false,
              settings: allOn,
              accountKind: 'simulated' as const,
              ...options.recipient,
            },
      ),
    delivered: (ids: readonly string[], outcome: string) => {
      if (ids.length > 0) outcomes.push(`${ids.join(',')} ${outcome}`);
      outbox = [];
      return Promise.resolve();
    },
  } as unknown as NotificationsStore;
  const claims = {
    claim: () =>
      Promise.resolve(
        options.claimed
          ? undefined
          : { run: 1, finish: () => Promise.resolve(), release: () => Promise.resolve() },
      ),
  } as unknown as JobClaims;
  const windows = { take: () => Promise.resolve(undefined) } as unknown as OncePerWindow;
  const service = new NotificationService({
    repository,
    claims,
    windows,
    mailer: {
      send: (message) => {
        mails.push(message);
        return Promise.resolve();
      },
      close: () => Promise.resolve(),
    },
    clock: { now: () => now },
    robotNow: () => now.getTime(),
    links: (language) => {
      const base = `https://tradebot.example${language === 'pt' ? '/pt' : ''}`;
      return {
        dashboard: `${base}/dashboard`,
        settings: `${base}/profile-config`,
        payment: `${base}/payment`,
      };
    },
    dayFigures: () => Promise.resolve(undefined),
    houseAccountId: 'house',
    onError: () => undefined,
  });
  /** A robot-stopped notice waiting in the outbox, then a run. */
  const deliverStop = async () => {
    outbox = [
      {
        id: 'n1',
        userId: 'u1',
        kind: 'robot_stopped',
        payload: { reason: 'kill_switch', closed: 2 },
        createdAt: now,
      },
    ];
    await service.runDue();
  };
  return { service, recorded, outcomes, mails, deliverStop };
}

describe('NotificationService: what is recorded, once', () => {
  it('records a closed operation once however often the robot says it, and a stop loss too', async () => {
    const { service, recorded } = rig();
    const event = {
      type: 'PositionClosed',
      accountId: 'u1',
      trade: closedTrade('P7', 'sl'),
      projection: projectionOf('u1'),
    } as unknown as RobotEvent;
    service.robotEvent(event);
    service.robotEvent(event);
    await service.settled();
    expect(recorded.map((record) => [record.kind, record.key])).toEqual([
      ['operation_closed', 'u1:closed:P7'],
      ['stop_loss', 'u1:sl:P7'],
    ]);
  });

  it("records nothing for the robot's own account (nobody reads its mail)", async () => {
    const { service, recorded } = rig();
    service.robotEvent({
      type: 'PositionClosed',
      accountId: 'house',
      trade: closedTrade('P8', 'sl'),
      projection: projectionOf('house', { equity: 1, usedMargin: 100 }),
    } as unknown as RobotEvent);
    await service.settled();
    expect(recorded).toEqual([]);
  });

  it('warns once a day when equity falls under the margin used', async () => {
    const { service, recorded } = rig();
    const thin = projectionOf('u1', { equity: 900, usedMargin: 1_000, freeMargin: -100 });
    const safe = projectionOf('u1', { equity: 1_100, usedMargin: 1_000, freeMargin: 100 });
    service.robotEvent({ type: 'AccountChanged', projection: safe } as unknown as RobotEvent);
    service.robotEvent({ type: 'AccountChanged', projection: thin } as unknown as RobotEvent);
    service.robotEvent({ type: 'AccountChanged', projection: thin } as unknown as RobotEvent);
    await service.settled();
    expect(recorded.map((record) => record.key)).toEqual(['u1:margin_warning:2026-11-21']);
    expect(recorded[0]?.payload).toMatchObject({ marginLevel: 90 });
  });

  it('records the kill switch with how many operations it closed', async () => {
    const { service, recorded } = rig();
    await service.killSwitchPulled('u1', 3);
    expect(recorded[0]).toMatchObject({
      kind: 'robot_stopped',
      payload: { reason: 'kill_switch', closed: 3 },
    });
  });
});

describe('NotificationService: delivery', () => {
  it("mails a notice in the recipient's language and marks it sent", async () => {
    const es = rig();
    await es.deliverStop();
    const pt = rig({ recipient: { language: 'pt' } });
    await pt.deliverStop();
    expect(es.outcomes).toEqual(['n1 sent']);
    expect(es.mails).toHaveLength(1);
    expect(pt.mails[0]?.to).toBe('ana@example.com');
    expect(pt.mails[0]?.subject).not.toBe(es.mails[0]?.subject);
  });

  it('sends nothing the user switched off since it was recorded', async () => {
    const { deliverStop, mails, outcomes } = rig({
      recipient: { settings: { ...allOn, robot_stopped: false } },
    });
    await deliverStop();
    expect(mails).toEqual([]);
    expect(outcomes).toEqual(['n1 off']);
  });

  it('sends nothing to a deleted account', async () => {
    const { deliverStop, mails, outcomes } = rig({ recipient: { deleted: true } });
    await deliverStop();
    expect(mails).toEqual([]);
    expect(outcomes).toEqual(['n1 no_account']);
  });

  it('leaves a delivery another process claimed to it', async () => {
    const { deliverStop, mails, outcomes } = rig({ claimed: true });
    await deliverStop();
    expect(mails).toEqual([]);
    expect(outcomes).toEqual([]);
  });
});
