import { z } from 'zod';

/**
 * zod, as every module of the contract imports it. In a browser the Content-Security-Policy
 * forbids eval (docs/decisions/051): zod's fast path would probe for it with `new Function`
 * when the first object schema is built, and the browser would report a violation on every
 * page that validates a form. So in a browser zod runs without it, configured here before any
 * schema exists; the server keeps it.
 */
if ('document' in globalThis) z.config({ jitless: true });

export { z };
