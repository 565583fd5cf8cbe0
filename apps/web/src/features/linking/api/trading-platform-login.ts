import type { TradingPlatformLoginRequest } from '@tradebot/contract';
import { v1Paths } from '@tradebot/contract/constants';
import { apiRequest } from '../../../lib/api-client';

/** POST trading-platform-login (route TradearLogin): `linked` and `login_tradear` become true. */
export async function tradingPlatformLogin(input: TradingPlatformLoginRequest): Promise<void> {
  await apiRequest(`/api/v1${v1Paths.tradingPlatformLogin}`, { method: 'POST', body: input });
}
