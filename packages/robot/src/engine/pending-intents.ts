import type { OrderIntent } from '../execution/trade-record';

/**
 * The intents sent or about to be sent and not yet settled, per account. An account holds a
 * handful at most, so a report finds its intent by the account and a short scan, and adding
 * one during a tick's fan-out hashes no order id (decision 025). Lists outlive `removeAccount`:
 * a removed account's orders still settle.
 */
export class PendingIntents {
  private readonly byAccount = new Map<string, OrderIntent[]>();

  /** The account's live list, created on first use; callers may keep it and pass it to `add`. */
  listOf(accountId: string): OrderIntent[] {
    let list = this.byAccount.get(accountId);
    if (!list) {
      list = [];
      this.byAccount.set(accountId, list);
    }
    return list;
  }

  add(intent: OrderIntent, list: OrderIntent[] = this.listOf(intent.accountId)): void {
    list.push(intent);
  }

  find(accountId: string, clientOrderId: string): OrderIntent | undefined {
    const list = this.byAccount.get(accountId);
    if (!list) return undefined;
    for (const intent of list) if (intent.clientOrderId === clientOrderId) return intent;
    return undefined;
  }

  /** True when the intent was pending, and now no longer is. */
  remove(intent: OrderIntent): boolean {
    const list = this.byAccount.get(intent.accountId);
    const at = list ? list.indexOf(intent) : -1;
    if (!list || at < 0) return false;
    list.splice(at, 1);
    return true;
  }

  has(intent: OrderIntent): boolean {
    return this.byAccount.get(intent.accountId)?.includes(intent) ?? false;
  }
}
