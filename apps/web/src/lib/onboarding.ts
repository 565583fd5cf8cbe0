import { planIds, type PlanId } from '@tradebot/contract/constants';
import { storedItem } from './storage';

/**
 * The plan a visitor chose on the home page ("Empezar con el plan X", or a link to
 * `/register?plan=…`), kept in this browser until the payment page has offered it
 * (docs/decisions/086). Not one of the spec's keys: its own `tradebot.` name.
 */
const chosenPlanItem = storedItem('local', 'tradebot.chosenPlan');

/** A plan id from untrusted text (a query string, storage), or null. */
export function planIdFrom(value: string | null | undefined): PlanId | null {
  return planIds.find((id) => id === value) ?? null;
}

export const chosenPlan = {
  get(): PlanId | null {
    return planIdFrom(chosenPlanItem.get());
  },
  /** Keeps `value` when it names a plan; anything else leaves the stored choice as it was. */
  remember(value: string | null | undefined): void {
    const plan = planIdFrom(value);
    if (plan) chosenPlanItem.set(plan);
  },
  clear(): void {
    chosenPlanItem.clear();
  },
};

/**
 * Router state of the first visit to /payment, right after the e-mail was confirmed: the page
 * welcomes the new account instead of the guard's "must pay" (a later visit is the usual page).
 */
export const welcomeState = { welcome: true } as const;

export function isWelcome(state: unknown): boolean {
  return (
    typeof state === 'object' && state !== null && 'welcome' in state && state.welcome === true
  );
}

/**
 * Router state of the first visit to /link-account after a free-month code made the account
 * (decision 156): the day the free month ends, told in the page above the form rather than in
 * a dialog over it.
 */
export function freeMonthState(until: string) {
  return { freeMonthUntil: until } as const;
}

export function freeMonthUntil(state: unknown): string | null {
  return typeof state === 'object' &&
    state !== null &&
    'freeMonthUntil' in state &&
    typeof state.freeMonthUntil === 'string'
    ? state.freeMonthUntil
    : null;
}
