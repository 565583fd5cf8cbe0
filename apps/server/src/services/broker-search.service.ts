import {
  brokerDirectorySchema,
  brokerSearchLimits,
  builtInPlatform,
  categories,
  type Broker,
  type BrokerPlatform,
  type BrokerSearchQuery,
  type Category,
} from '@tradebot/contract';
import { centsToDollars, dollarsToCents } from '@tradebot/robot';
import type { BrokerRow, BrokersStore, NewBroker } from '../repositories/brokers.repository';
import type { Clock } from '../repositories/clock';

/**
 * The built-in trading platform, offered to every visitor whatever they answered: the robot
 * works with it, it serves every country, and its money is simulated, so no regulator, deposit
 * or market choice applies to it.
 */
export const builtInBroker: Broker = {
  id: builtInPlatform.id,
  name: 'Tradebot Demo',
  builtIn: true,
  example: false,
  regulators: [],
  countries: [],
  platforms: ['web'],
  minDeposit: 0,
  markets: [...categories],
  robotSupported: true,
  website: null,
};

function brokerOf(row: BrokerRow): Broker {
  return {
    id: row.id,
    name: row.name,
    builtIn: false,
    example: row.example,
    regulators: row.regulators,
    countries: row.countries,
    platforms: row.platforms as BrokerPlatform[],
    minDeposit: centsToDollars(row.minDepositCents),
    markets: row.markets as Category[],
    robotSupported: row.robotSupported,
    website: row.website,
  };
}

/**
 * Experience orders, never hides: someone who never invested sees the lowest minimum deposit
 * first; someone with experience sees the widest choice of markets first. Brokers the robot
 * works with come first either way, and the name settles ties.
 */
function byFit(experience: BrokerSearchQuery['experience']) {
  return (a: BrokerRow, b: BrokerRow): number => {
    if (a.robotSupported !== b.robotSupported) return a.robotSupported ? -1 : 1;
    const deposit = a.minDepositCents - b.minDepositCents;
    const breadth = b.markets.length - a.markets.length;
    const first = experience === 'none' ? deposit || breadth : breadth || deposit;
    return first || a.name.localeCompare(b.name, 'es');
  };
}

/** The broker search (spec §2 searching-broker), over the directory in the database. */
export class BrokerSearchService {
  constructor(
    private readonly directory: BrokersStore,
    private readonly clock: Clock,
  ) {}

  async search(query: BrokerSearchQuery): Promise<{ brokers: Broker[]; matched: number }> {
    const rows = await this.directory.matching({
      country: query.country,
      markets: query.markets,
      maxMinDepositCents: dollarsToCents(query.deposit),
      platform: query.platform,
      regulatedOnly: query.regulated_only,
      robotOnly: query.robot_only,
    });
    const fitting = rows.sort(byFit(query.experience));
    const shown = fitting.slice(0, brokerSearchLimits.maxResults - 1).map(brokerOf);
    return { brokers: [builtInBroker, ...shown], matched: fitting.length };
  }

  /**
   * Replaces the whole directory with a file's entries (`npm run brokers:load`); the file is
   * validated first, so a bad file changes nothing. Returns how many entries it loaded.
   */
  async load(file: unknown): Promise<number> {
    const { brokers } = brokerDirectorySchema.parse(file);
    const ids = new Set<string>();
    for (const broker of brokers) {
      if (ids.has(broker.id)) throw new Error(`broker id ${broker.id} appears twice`);
      if (broker.id === builtInPlatform.id)
        throw new Error(`${broker.id} is the built-in platform`);
      ids.add(broker.id);
    }
    const rows: NewBroker[] = brokers.map((broker) => ({
      id: broker.id,
      name: broker.name,
      regulators: broker.regulators,
      countries: [...new Set(broker.countries)],
      platforms: [...new Set(broker.platforms)],
      minDepositCents: dollarsToCents(broker.min_deposit_usd),
      markets: [...new Set(broker.markets)],
      robotSupported: broker.robot_supported,
      website: broker.website ?? null,
      example: broker.example,
    }));
    await this.directory.replaceAll(rows, this.clock.now());
    return rows.length;
  }

  /** The embedded demo's example entries, only into an empty directory. */
  async loadExamplesIfEmpty(examples: unknown): Promise<boolean> {
    if ((await this.directory.size()) > 0) return false;
    await this.load(examples);
    return true;
  }
}
