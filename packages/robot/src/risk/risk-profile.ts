/**
 * What the user's risk level changes (decision 020). The level never lowers the bar a signal
 * must clear: every level trades only above the break-even rate of the TP/SL geometry.
 */
export interface RiskProfile {
  readonly level: number;
  /** Target margin of one operation, as a fraction of free margin (spec §1, §9: 10% at level 1). */
  readonly marginFractionPerOperation: number;
  /** Margin of all open operations, as a fraction of equity (spec §1, §9: 50% at every level). */
  readonly exposureCap: number;
  /** Loss since the start of the UTC day, as a fraction of that day's starting equity. */
  readonly dailyLossLimit: number;
}

export const riskLevels = [1, 2, 3, 4, 5] as const;
export type RiskLevel = (typeof riskLevels)[number];

export const exposureCap = 0.5;

const profiles: Readonly<Record<RiskLevel, RiskProfile>> = {
  1: { level: 1, marginFractionPerOperation: 0.1, exposureCap, dailyLossLimit: 0.05 },
  2: { level: 2, marginFractionPerOperation: 0.125, exposureCap, dailyLossLimit: 0.075 },
  3: { level: 3, marginFractionPerOperation: 0.15, exposureCap, dailyLossLimit: 0.1 },
  4: { level: 4, marginFractionPerOperation: 0.2, exposureCap, dailyLossLimit: 0.125 },
  5: { level: 5, marginFractionPerOperation: 0.25, exposureCap, dailyLossLimit: 0.15 },
};

/** Out-of-range or fractional levels fall back to the nearest defined level (default 1). */
export function riskProfile(risk: number): RiskProfile {
  const level = Number.isFinite(risk) ? Math.min(5, Math.max(1, Math.round(risk))) : 1;
  return profiles[level as RiskLevel];
}
