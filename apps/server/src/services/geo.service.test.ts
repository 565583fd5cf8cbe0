import { describe, expect, it } from 'vitest';
import { geoipDatabase } from '../repositories/geo.repository';
import { GeoService } from './geo.service';

describe('GeoService', () => {
  const service = new GeoService(geoipDatabase);

  it.each([
    ['181.30.0.1', 'AR'],
    ['200.147.67.142', 'BR'],
    ['8.8.8.8', 'US'],
    ['::ffff:200.147.67.142', 'BR'],
    ['2804:14c::1', 'BR'],
  ])('locates %s in %s', (ip, country) => {
    expect(service.countryCodeOf(ip)).toBe(country);
  });

  it.each(['127.0.0.1', '::1', '10.1.2.3', '192.168.0.10', '172.16.5.4', 'not-an-ip', ''])(
    'falls back to AR for %j',
    (ip) => {
      expect(service.countryCodeOf(ip)).toBe('AR');
    },
  );

  it('upper-cases whatever the lookup answers', () => {
    expect(new GeoService({ countryOf: () => 'br' }).countryCodeOf('1.1.1.1')).toBe('BR');
  });
});
