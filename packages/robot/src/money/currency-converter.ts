import type { InstrumentCatalogue } from '../instruments/catalogue';

export type MidPriceLookup = (symbol: string) => number | undefined;

/**
 * Converts amounts in a quote currency to USD at the current mid of the USD pair (the only
 * conversion, made at the edge when profit or margin is booked; decision 022). Falls back to
 * the catalogue's reference level before the pair's first tick. Pence (GBX) are GBP / 100.
 */
export class CurrencyConverter {
  private readonly routes = new Map<string, { symbol: string; inverse: boolean; scale: number }>();

  constructor(
    private readonly catalogue: InstrumentCatalogue,
    private readonly mid: MidPriceLookup,
  ) {}

  usdPerUnit(currency: string): number {
    if (currency === 'USD') return 1;
    const route = this.routeFor(currency);
    const price = this.mid(route.symbol) ?? this.catalogue.require(route.symbol).referencePrice;
    return (route.inverse ? 1 / price : price) * route.scale;
  }

  private routeFor(currency: string) {
    let route = this.routes.get(currency);
    if (route) return route;
    const base = currency === 'GBX' ? 'GBP' : currency;
    const scale = currency === 'GBX' ? 0.01 : 1;
    if (this.catalogue.get(`${base}USD`)) route = { symbol: `${base}USD`, inverse: false, scale };
    else if (this.catalogue.get(`USD${base}`))
      route = { symbol: `USD${base}`, inverse: true, scale };
    else throw new Error(`No USD conversion for ${currency}`);
    this.routes.set(currency, route);
    return route;
  }
}
