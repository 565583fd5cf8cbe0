import type { CountryCodeResponse } from '@tradebot/contract';
import { apiRequest } from './api-client';

/** spec §7: POST /api/v1/country-code; data.data is the country code string. */
export async function getCountryCode(): Promise<CountryCodeResponse> {
  return apiRequest<CountryCodeResponse>('/api/v1/country-code', { method: 'POST' });
}
