/** spec §7: every call goes to {host}/core-api/public, under /api/v1. */
export const apiBasePath = '/core-api/public';
export const apiV1Prefix = `${apiBasePath}/api/v1`;

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
