import type { BrokerPlatform, Category } from '@tradebot/contract';
import { and, arrayContains, count, eq, gt, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { brokers } from '../db/schema';

export type BrokerRow = typeof brokers.$inferSelect;
export type NewBroker = typeof brokers.$inferInsert;

export interface BrokerFilter {
  country: string;
  markets: readonly Category[];
  maxMinDepositCents: number;
  platform: BrokerPlatform | 'any';
  regulatedOnly: boolean;
  robotOnly: boolean;
}

/** The broker directory port the search depends on; `BrokersRepository` is its implementation. */
export interface BrokersStore {
  /** Every entry that fits, in no particular order. */
  matching(filter: BrokerFilter): Promise<BrokerRow[]>;
  /**
   * The directory's name for an id of a broker the robot works with (a linkable one, whose
   * robotbitcoin landing may invite to connect an account there); null for any other id.
   */
  linkableNameOf(id: string): Promise<string | null>;
  size(): Promise<number>;
  /** The directory becomes exactly these entries, at once: a reader sees the old or the new. */
  replaceAll(entries: readonly NewBroker[], now: Date): Promise<void>;
}

/** The broker directory (docs/decisions/050-broker-directory-and-search.md). */
export class BrokersRepository implements BrokersStore {
  constructor(private readonly db: Db) {}

  /** Every entry that fits, in no particular order. */
  async matching(filter: BrokerFilter): Promise<BrokerRow[]> {
    return this.db
      .select()
      .from(brokers)
      .where(
        and(
          arrayContains(brokers.countries, [filter.country]),
          arrayContains(brokers.markets, [...filter.markets]),
          lte(brokers.minDepositCents, filter.maxMinDepositCents),
          filter.platform === 'any'
            ? undefined
            : arrayContains(brokers.platforms, [filter.platform]),
          filter.regulatedOnly ? gt(sql`cardinality(${brokers.regulators})`, 0) : undefined,
          filter.robotOnly ? eq(brokers.robotSupported, true) : undefined,
        ),
      );
  }

  /** The name of a linkable directory broker (issue 39), or null (unknown or not linkable). */
  async linkableNameOf(id: string): Promise<string | null> {
    const [row] = await this.db
      .select({ name: brokers.name })
      .from(brokers)
      .where(and(eq(brokers.id, id), eq(brokers.robotSupported, true)))
      .limit(1);
    return row?.name ?? null;
  }

  async size(): Promise<number> {
    const [row] = await this.db.select({ entries: count() }).from(brokers);
    return row?.entries ?? 0;
  }

  /** The directory becomes exactly these entries, at once: a reader sees the old or the new. */
  async replaceAll(entries: readonly NewBroker[], now: Date): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.delete(brokers);
      if (entries.length > 0) {
        await tx.insert(brokers).values(entries.map((entry) => ({ ...entry, updatedAt: now })));
      }
    });
  }
}
