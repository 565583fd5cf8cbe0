import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installMemoryStorage } from '../test/memory-storage';
import { chosenPlan, isWelcome, planIdFrom, welcomeState } from './onboarding';

let restore: () => void;
beforeEach(() => {
  restore = installMemoryStorage();
});
afterEach(() => {
  restore();
});

describe('the plan chosen on the home page', () => {
  it('accepts only the plans the contract knows', () => {
    expect(planIdFrom('monthly')).toBe('monthly');
    expect(planIdFrom('yearly')).toBe('yearly');
    expect(planIdFrom('Yearly')).toBeNull();
    expect(planIdFrom('weekly')).toBeNull();
    expect(planIdFrom(null)).toBeNull();
  });

  it('is kept under its own tradebot. key, not one of the spec keys', () => {
    chosenPlan.remember('yearly');
    expect(localStorage.getItem('tradebot.chosenPlan')).toBe('yearly');
    expect(chosenPlan.get()).toBe('yearly');
  });

  it('keeps the earlier choice when a link names no known plan', () => {
    chosenPlan.remember('monthly');
    chosenPlan.remember('<script>');
    chosenPlan.remember(null);
    expect(chosenPlan.get()).toBe('monthly');
  });

  it('ignores a stored value that is not a plan', () => {
    localStorage.setItem('tradebot.chosenPlan', 'lifetime');
    expect(chosenPlan.get()).toBeNull();
  });

  it('is forgotten once cleared', () => {
    chosenPlan.remember('yearly');
    chosenPlan.clear();
    expect(chosenPlan.get()).toBeNull();
  });
});

describe('the welcome state of the first visit to /payment', () => {
  it('is recognised only as the state the confirmation sets', () => {
    expect(isWelcome(welcomeState)).toBe(true);
    expect(isWelcome(null)).toBe(false);
    expect(isWelcome({ welcome: 'yes' })).toBe(false);
    expect(isWelcome({ from: '/dashboard' })).toBe(false);
  });
});
