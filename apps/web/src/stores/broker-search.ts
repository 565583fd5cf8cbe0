import type { BrokerPlatform, Category, ExperienceLevel } from '@tradebot/contract/constants';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/** Planned deposit, in bands a beginner can answer; each sends its upper bound in USD. */
export const depositBands = {
  upTo100: 100,
  upTo500: 500,
  upTo2000: 2_000,
  over2000: 10_000_000,
} as const;
export type DepositBand = keyof typeof depositBands;

export interface BrokerSearchAnswers {
  /** '' until chosen: the geo store's country fills it on the first step. */
  country: string;
  markets: Category[];
  deposit: DepositBand | null;
  experience: ExperienceLevel | null;
  platform: BrokerPlatform | 'any';
  regulatedOnly: boolean;
  robotOnly: boolean;
}

export interface BrokerSearchState extends BrokerSearchAnswers {
  answer: (change: Partial<BrokerSearchAnswers>) => void;
  toggleMarket: (market: Category) => void;
  reset: () => void;
}

const initialAnswers: BrokerSearchAnswers = {
  country: '',
  markets: [],
  deposit: null,
  experience: null,
  platform: 'any',
  regulatedOnly: true,
  robotOnly: false,
};

/**
 * The broker search's answers across its five step pages (docs/decisions/050), kept in
 * sessionStorage so that moving between steps or reloading a step keeps them, and never past
 * the tab.
 */
export function createBrokerSearchStore() {
  return create<BrokerSearchState>()(
    persist(
      (set) => ({
        ...initialAnswers,
        answer: (change) => {
          set(change);
        },
        toggleMarket: (market) => {
          set((state) => ({
            markets: state.markets.includes(market)
              ? state.markets.filter((chosen) => chosen !== market)
              : [...state.markets, market],
          }));
        },
        reset: () => {
          set(initialAnswers);
        },
      }),
      {
        name: 'tradebot.brokerSearch',
        storage: createJSONStorage(() => sessionStorage),
        partialize: ({ answer: _answer, toggleMarket: _toggle, reset: _reset, ...answers }) =>
          answers,
      },
    ),
  );
}

export const useBrokerSearchStore = createBrokerSearchStore();

/** The first step whose question is still unanswered (5 when all are), for the results. */
export function firstUnansweredStep(answers: BrokerSearchAnswers): number {
  if (!/^[A-Z]{2}$/.test(answers.country)) return 1;
  if (answers.markets.length === 0) return 2;
  if (answers.deposit === null) return 3;
  if (answers.experience === null) return 4;
  return 5;
}
