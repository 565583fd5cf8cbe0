import Emittery from 'emittery';
import type { SessionsRevoked } from '../services/auth.service';

/**
 * What one capability tells the others, in the past tense (decision 145). A capability publishes
 * what happened; the capabilities that react subscribe in their own plugin, so neither knows the
 * other's services.
 */
export interface AppEvents {
  /** Billing changed a user's access (a payment, a renewal, an end, a refund). */
  AccessChanged: { userId: string };
  /** A charge failed and billing stored it: the subscription is past due (decisions 058, 148). */
  ChargeFailed: { userId: string };
  /** A cTrader account was linked (its grant stored). */
  BrokerLinked: { userId: string };
  /** A linked account (cTrader or the built-in platform) was unlinked. */
  BrokerUnlinked: { userId: string };
  /** A cTrader grant was refreshed: the robots read the new token. */
  GrantRefreshed: { userId: string };
  /** The user pulled the kill switch with notice (the robot stopped, `closed` positions closed). */
  KillSwitchPulled: { userId: string; closed: number };
  /** A session, or every session of a user, ended (logout, password change, deletion). */
  SessionsRevoked: SessionsRevoked;
}

export type AppEventName = keyof AppEvents;

/**
 * One in-process bus on emittery (decision 145). `publish` runs the listeners one after another,
 * in the order they subscribed, and settles once the last has: a publisher awaits the reactions
 * as it awaited the callbacks they replace, and a listener's failure is the publisher's.
 */
export class EventBus {
  private readonly emitter = new Emittery<AppEvents>();

  /** Subscribes; returns the unsubscription. */
  on<Name extends AppEventName>(
    name: Name,
    listener: (event: AppEvents[Name]) => Promise<void> | void,
  ): () => void {
    return this.emitter.on(name, listener);
  }

  publish<Name extends AppEventName>(name: Name, event: AppEvents[Name]): Promise<void> {
    return this.emitter.emitSerial(name, event);
  }
}
