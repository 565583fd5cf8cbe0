/**
 * Account money is held in integer US cents (ARCHITECTURE.md, "Money and prices"), so that
 * balance = deposits + sum of realised profit holds exactly. Floating-point values in account
 * currency appear only at the edge, and are converted here, once (decision 022).
 */
export type Cents = number;

/** Tolerance for values such as 12.345000000000001 that are meant as exact ties. */
const tieTolerance = 1e-9;

/**
 * Dollars (float) to cents, rounding half to even ("banker's rounding"): symmetric for gains
 * and losses, so rounding does not drift the ledger in either direction over many trades.
 */
export function dollarsToCents(dollars: number): Cents {
  const cents = dollars * 100;
  const floor = Math.floor(cents);
  const fraction = cents - floor;
  let rounded: number;
  if (Math.abs(fraction - 0.5) < tieTolerance) rounded = floor % 2 === 0 ? floor : floor + 1;
  else rounded = Math.round(cents);
  return rounded === 0 ? 0 : rounded; // no negative zero in the ledger
}

/**
 * Margin is rounded up to the next cent: the margin the engine reserves is never less than the
 * exact requirement, so the 50% cap is never breached by rounding.
 */
export function dollarsToCentsRoundedUp(dollars: number): Cents {
  const cents = dollars * 100;
  const rounded = Math.ceil(cents - tieTolerance);
  return rounded === 0 ? 0 : rounded;
}

export function centsToDollars(cents: Cents): number {
  return cents / 100;
}
