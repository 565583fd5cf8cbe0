import geoip from 'geoip-country';

/** Country lookups from the GeoLite2 data that ships inside the geoip-country package. */
export interface GeoStore {
  /** The ISO country code of a public address, or undefined when unknown. */
  countryOf(ip: string): string | undefined;
}

export const geoipDatabase: GeoStore = {
  countryOf(ip) {
    return geoip.lookup(ip)?.country;
  },
};
