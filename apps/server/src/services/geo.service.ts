import { fallbackCountryCode } from '@tradebot/contract';
import type { GeoStore } from '../repositories/geo.repository';

/** "::ffff:181.30.0.1" is the IPv4 address 181.30.0.1 as a dual-stack socket reports it. */
function normalizeAddress(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return mapped?.[1] ?? ip;
}

export class GeoService {
  constructor(private readonly geo: GeoStore) {}

  /** spec §4 Geo: upper-case code, and AR for loopback, private or unknown addresses. */
  countryCodeOf(ip: string): string {
    const code = this.geo.countryOf(normalizeAddress(ip));
    return code && /^[A-Za-z]{2}$/.test(code) ? code.toUpperCase() : fallbackCountryCode;
  }
}
