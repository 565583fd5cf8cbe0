/**
 * The zod-free part of the contract: constants, the language rules and the message
 * catalogue. The web app's shell imports from here (`@tradebot/contract/constants`) so that
 * zod stays in the chunks of the routes that validate forms (docs/decisions/033).
 * constants.test.ts fails if anything reachable from here imports zod.
 */
export * from './api-paths';
export * from './categories';
export * from './error-codes';
export * from './geo';
export * from './language';
export * from './messages';
export * from './platforms';
export * from './plans';
