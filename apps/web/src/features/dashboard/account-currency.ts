import { createContext, useContext } from 'react';

/**
 * The currency of the dashboard's amounts (ISO 4217, decision 097), from the live data: USD on
 * the simulated platform, a linked broker account's own (BRL, MXN, EUR...) otherwise; null
 * until the server says it. The dashboard provides it; rows and charts format with it.
 */
export const AccountCurrency = createContext<string | null>('USD');

export function useAccountCurrency(): string | null {
  return useContext(AccountCurrency);
}
