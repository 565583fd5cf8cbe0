/**
 * The zod-free part of the contract: constants, the language rules, the message catalogue
 * and the promo campaigns' names. The web app's shell imports from here
 * (`@tradebot/contract/constants`): zod stays in the chunks of the routes that validate forms,
 * where it is needed. constants.test.ts fails if anything reachable from here imports zod.
 */
export * from './api-paths';
export * from './categories';
export * from './error-codes';
export * from './geo';
export * from './language';
export * from './messages';
export * from './platforms';
export * from './plans';
export * from './promo-campaigns';
export * from './push-services';
export * from './issue-message';
