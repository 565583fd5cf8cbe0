import { describe, expect, it } from 'vitest';
import {
  accessUntil,
  guaranteeWindow,
  ourStatus,
  renewalSlackMs,
  selfRefundWindow,
} from './billing-rules';

const day = 86_400_000;
const start = Date.UTC(2026, 10, 21, 12);
const period = { currentPeriodStart: start, currentPeriodEnd: start + 30 * day };

describe('access by subscription state (decision 047)', () => {
  it('gives access while trialing and active (with slack while renewing); none once a charge failed', () => {
    expect(accessUntil({ ...period, status: 'trialing', cancelAtPeriodEnd: false })).toBe(
      period.currentPeriodEnd,
    );
    expect(accessUntil({ ...period, status: 'active', cancelAtPeriodEnd: false })).toBe(
      period.currentPeriodEnd + renewalSlackMs,
    );
    expect(accessUntil({ ...period, status: 'active', cancelAtPeriodEnd: true })).toBe(
      period.currentPeriodEnd,
    );
    expect(accessUntil({ ...period, status: 'past_due', cancelAtPeriodEnd: false })).toBeNull();
    expect(accessUntil({ ...period, status: 'canceled', cancelAtPeriodEnd: false })).toBeNull();
    expect(accessUntil({ ...period, status: 'refunded', cancelAtPeriodEnd: false })).toBeNull();
  });

  it('a refund overrides the provider state; an unfinished first payment is not recorded', () => {
    expect(ourStatus('active', true)).toBe('refunded');
    expect(ourStatus('canceled', true)).toBe('refunded');
    expect(ourStatus('past_due', false)).toBe('past_due');
    expect(ourStatus('incomplete', false)).toBeUndefined();
  });
});

describe('refund windows (decision 048)', () => {
  const first = { paidAt: start, refundedAt: null };
  it('the self-service refund closes 7 days after the first payment', () => {
    expect(selfRefundWindow(first, start + 7 * day - 1)).toEqual({
      eligible: true,
      until: start + 7 * day,
    });
    expect(selfRefundWindow(first, start + 7 * day).eligible).toBe(false);
    expect(selfRefundWindow({ ...first, refundedAt: start + day }, start + 2 * day).eligible).toBe(
      false,
    );
    expect(selfRefundWindow(undefined, start)).toEqual({ eligible: false, until: null });
  });

  it('the guarantee holds 30 days', () => {
    expect(guaranteeWindow(first, start + 29 * day).eligible).toBe(true);
    expect(guaranteeWindow(first, start + 30 * day).eligible).toBe(false);
  });
});
