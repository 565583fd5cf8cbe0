import type { DatabaseLink } from '../db/database';
import type { EngineEventOf, PaperBrokerState, RobotSettings } from '@tradebot/robot';
import type { AccountView } from './robot-runtime';

/**
 * The messages between the robot's facade in the main thread (`RobotClient`) and the thread that
 * runs the robot (`RobotHost`): plain data only, so that they cross a MessagePort (decision 046).
 */

/** The robot's time: the wall clock (sped up by MARKET_SPEED), or moved by the main thread. */
export type RobotClockSpec =
  | {
      readonly kind: 'wall';
      /** The robot's time when the wall clock read `wallOrigin`. */
      readonly origin: number;
      readonly wallOrigin: number;
      readonly speed: number;
    }
  /** Tests: each request carries the main thread's time, and the robot's clock takes it. */
  | { readonly kind: 'driven'; readonly now: number };

export interface RobotHostOptions {
  readonly clock: RobotClockSpec;
  readonly marketTickMs: number;
  readonly marketSeed: number;
  /** Advance the market on a timer every `marketTickMs` (tests send `advance`). */
  readonly autoAdvance: boolean;
  readonly quoteSaveMs: number;
  readonly warmUpMs: number;
  /** How often the views of watched accounts are pushed when they changed; 0 pushes none. */
  readonly mirrorMs: number;
}

/** What the worker thread receives at start. */
export interface RobotWorkerData {
  readonly options: RobotHostOptions;
  readonly link: DatabaseLink;
}

/** Each request and what its answer carries. */
export interface RobotOperations {
  openAccount: { args: { accountId: string; depositCents: number }; answer: undefined };
  deposit: { args: { accountId: string; cents: number }; answer: undefined };
  applySettings: { args: { accountId: string; settings: RobotSettings }; answer: undefined };
  closeAllPositions: { args: { accountId: string }; answer: number };
  /** `watch`: push this account's view from now on, whenever it changes. */
  view: { args: { accountId: string; watch: boolean }; answer: AccountView | null };
  settled: { args: Record<string, never>; answer: undefined };
  advance: { args: Record<string, never>; answer: undefined };
  snapshot: { args: Record<string, never>; answer: PaperBrokerState };
  stop: { args: Record<string, never>; answer: undefined };
}

export type RobotOperation = keyof RobotOperations;

export type RobotRequest = {
  [K in RobotOperation]: { readonly op: K; readonly id: number; readonly now: number } & Readonly<
    RobotOperations[K]['args']
  >;
}[RobotOperation];

/** Messages without an answer. */
export interface UnwatchNotice {
  readonly op: 'unwatch';
  readonly accountIds: readonly string[];
}

export type ClientMessage = RobotRequest | UnwatchNotice;

/** The engine's events the main thread listens to (live updates, logs). */
export type ForwardedEvent =
  | EngineEventOf<'PositionOpened'>
  | EngineEventOf<'PositionClosed'>
  | EngineEventOf<'TradingHalted'>
  | EngineEventOf<'TradingResumed'>;

export const forwardedEventTypes = [
  'PositionOpened',
  'PositionClosed',
  'TradingHalted',
  'TradingResumed',
] as const satisfies readonly ForwardedEvent['type'][];

export type HostMessage =
  | {
      readonly type: 'ready';
      readonly accountIds: readonly string[];
      /** Accounts with open operations, and how many each. */
      readonly openCounts: readonly (readonly [string, number])[];
    }
  | { readonly type: 'answer'; readonly id: number; readonly value: unknown }
  | { readonly type: 'refusal'; readonly id: number; readonly message: string }
  /** What happened since the last message: sent before any answer, so an answer follows it. */
  | {
      readonly type: 'changes';
      readonly events: readonly ForwardedEvent[];
      /** Accounts an operation of which closed and is in the database. */
      readonly closuresStored: readonly string[];
    }
  | { readonly type: 'views'; readonly views: readonly (readonly [string, AccountView])[] }
  | { readonly type: 'failure'; readonly what: string; readonly message: string };
