import { brokerSearchLimits, type BrokerSearchQuery } from '@tradebot/contract';
import { describe, expect, it } from 'vitest';
import type {
  BrokerFilter,
  BrokerRow,
  BrokersStore,
  NewBroker,
} from '../repositories/brokers.repository';
import { BrokerSearchService, builtInBroker } from './broker-search.service';

const now = new Date('2026-11-26T12:00:00.000Z');

function brokerRow(id: string, fields: Partial<BrokerRow>): BrokerRow {
  return {
    id,
    name: id,
    regulators: ['CNV'],
    countries: ['AR'],
    platforms: ['web'],
    minDepositCents: 10_000,
    markets: ['forex'],
    robotSupported: false,
    website: null,
    example: false,
    ...fields,
  } as BrokerRow;
}

/** A directory in memory: it answers `matching` with its rows and keeps what was loaded. */
function directory(rows: BrokerRow[]) {
  const filters: BrokerFilter[] = [];
  const loaded: { entries: readonly NewBroker[]; at: Date }[] = [];
  const store: BrokersStore = {
    matching: (filter) => {
      filters.push(filter);
      return Promise.resolve([...rows]);
    },
    linkableNameOf: (id) =>
      Promise.resolve(rows.find((row) => row.id === id && row.robotSupported)?.name ?? null),
    size: () => Promise.resolve(rows.length + loaded.length),
    replaceAll: (entries, at) => {
      loaded.push({ entries, at });
      return Promise.resolve();
    },
  };
  return { store, filters, loaded };
}

const query = (fields: Partial<BrokerSearchQuery>): BrokerSearchQuery => ({
  country: 'AR',
  markets: ['forex'],
  deposit: 500,
  experience: 'none',
  platform: 'any',
  regulated_only: true,
  robot_only: false,
  ...fields,
});

describe('BrokerSearchService', () => {
  const rows = [
    brokerRow('amplio', { minDepositCents: 100_000, markets: ['forex', 'cripto', 'acciones'] }),
    brokerRow('barato', { minDepositCents: 5_000, markets: ['forex'] }),
    brokerRow('robot', { minDepositCents: 50_000, markets: ['forex'], robotSupported: true }),
  ];

  it('asks the directory with the query in its own units (cents), and offers the built-in platform first', async () => {
    const { store, filters } = directory(rows);
    const result = await new BrokerSearchService(store, { now: () => now }).search(
      query({ deposit: 250, platform: 'metatrader5', robot_only: true }),
    );
    expect(filters).toEqual([
      {
        country: 'AR',
        markets: ['forex'],
        maxMinDepositCents: 25_000,
        platform: 'metatrader5',
        regulatedOnly: true,
        robotOnly: true,
      },
    ]);
    expect(result.brokers[0]).toEqual(builtInBroker);
    expect(result.matched).toBe(3);
  });

  it('orders by experience without hiding anyone: the robot’s brokers first, then the lowest deposit for a newcomer, the widest markets for the experienced', async () => {
    const service = new BrokerSearchService(directory(rows).store, { now: () => now });
    const newcomer = await service.search(query({ experience: 'none' }));
    expect(newcomer.brokers.map((broker) => broker.id)).toEqual([
      builtInBroker.id,
      'robot',
      'barato',
      'amplio',
    ]);
    const experienced = await service.search(query({ experience: 'experienced' }));
    expect(experienced.brokers.map((broker) => broker.id)).toEqual([
      builtInBroker.id,
      'robot',
      'amplio',
      'barato',
    ]);
    expect(newcomer.brokers[2]).toMatchObject({ minDeposit: 50, builtIn: false });
  });

  it('shows at most the contract’s number of results, and says how many fitted', async () => {
    const many = Array.from({ length: brokerSearchLimits.maxResults + 10 }, (_, index) =>
      brokerRow(`b-${String(index).padStart(3, '0')}`, {}),
    );
    const result = await new BrokerSearchService(directory(many).store, {
      now: () => now,
    }).search(query({}));
    expect(result.brokers).toHaveLength(brokerSearchLimits.maxResults);
    expect(result.matched).toBe(many.length);
  });

  it('loads a valid file whole, and a file with a repeated id or the built-in platform’s id changes nothing', async () => {
    const { store, loaded } = directory([]);
    const service = new BrokerSearchService(store, { now: () => now });
    const entry = {
      id: 'uno',
      name: 'Uno',
      regulators: [],
      countries: ['BR', 'BR'],
      platforms: ['web'],
      min_deposit_usd: 12.34,
      markets: ['forex'],
      robot_supported: false,
    };
    await expect(service.load({ brokers: [entry, entry] })).rejects.toThrow(/twice/);
    await expect(service.load({ brokers: [{ ...entry, id: builtInBroker.id }] })).rejects.toThrow(
      /built-in/,
    );
    expect(loaded).toEqual([]);
    await expect(service.load({ brokers: [entry] })).resolves.toBe(1);
    expect(loaded).toHaveLength(1);
    expect(loaded[0]?.at).toEqual(now);
    expect(loaded[0]?.entries[0]).toMatchObject({
      id: 'uno',
      countries: ['BR'],
      minDepositCents: 1_234,
      website: null,
      example: false,
    });
  });
});
