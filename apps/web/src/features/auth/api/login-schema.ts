// The login form's schema, imported when the form is first used (lib/contract-form `lazySchema`):
// zod and the contract's schemas stay out of what /login loads to show and hydrate.
export { loginRequestSchema } from '@tradebot/contract';
