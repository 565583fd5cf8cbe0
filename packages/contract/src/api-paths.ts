/** spec §7: every call goes to {host}/core-api/public, under /api/v1. */
export const apiBasePath = '/core-api/public';
export const apiV1Prefix = `${apiBasePath}/api/v1`;

/**
 * Paths under `apiV1Prefix` shared by the server's routes and the web's calls. The calls of
 * spec §7 keep their literal paths where they are used.
 */
export const v1Paths = {
  linkAccount: '/link-account',
  tradingPlatformLogin: '/trading-platform-login',
  brokerSearch: '/broker-search',
} as const;

/** Billing (issue 10; decision 047), under apiV1Prefix. */
export const billingPaths = {
  overview: '/billing',
  checkout: '/billing/checkout',
  /** GET `${checkoutStatus}/:sessionId`: what the return page polls. */
  checkoutStatus: '/billing/checkout',
  cancel: '/billing/cancel',
  resume: '/billing/resume',
  refund: '/billing/refund',
  portal: '/billing/portal',
  /** POST `${webhooks}/:provider`: the providers' signed events. */
  webhooks: '/billing/webhooks',
} as const;

/** The simulated provider's hosted pages, on our port (not under the API). */
export const simulatedPaymentsPath = '/sim-pay';
