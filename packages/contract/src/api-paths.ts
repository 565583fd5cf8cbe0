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
  /** POST: the robot stops for the account and the link is erased (decision 091). */
  unlinkAccount: '/unlink-account',
  brokerSearch: '/broker-search',
  trackRecord: '/track-record',
  /** GET: the account's refused orders, newest first (decision 101). */
  orderRejections: '/order-rejections',
  /** GET: a linked broker account's symbols the robot does not trade (decision 101). */
  untradableSymbols: '/untradable-symbols',
  /** GET: the robot's status, with what it does per chosen category (decision 147). */
  robotStatus: '/robot-status',
  /** POST: the user closes one open operation at the market (decision 152); `:id` its id. */
  closeOperation: '/operations/:id/close',
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

/**
 * Account settings (issue 23; decision 080), under apiV1Prefix. `:id` is a session's id
 * (`fillPath` fills it).
 */
export const accountPaths = {
  details: '/account',
  password: '/account/password',
  phone: '/account/phone',
  sessions: '/account/sessions',
  signOutSession: '/account/sessions/:id/sign-out',
  signOutOthers: '/account/sessions/sign-out-others',
  delete: '/account/delete',
  /** Signed in: asks for the change (decision 089). */
  email: '/account/email',
  /** Public: the link mailed to the new address, and the old address's "it was not me". */
  emailConfirm: '/account/email/confirm',
  emailUndo: '/account/email/undo',
  /** GET: every piece of data we hold about the user, as a JSON file (LGPD art. 18; decision 153). */
  dataExport: '/account/data-export',
} as const;

/** Notifications (issue 22; decision 088), under apiV1Prefix. */
export const notificationPaths = {
  settings: '/notifications/settings',
  /** GET: the server's VAPID public key, for PushManager.subscribe. */
  pushKey: '/notifications/push/key',
  /** POST adds this browser's subscription; DELETE removes it. */
  pushSubscriptions: '/notifications/push/subscriptions',
} as const;

/** The simulated provider's hosted pages, on our port (not under the API). */
export const simulatedPaymentsPath = '/sim-pay';

/**
 * Support (docs/decisions/056 and 057): the contact form and the support console, under
 * apiV1Prefix. `:id` and `:code` are path parameters; `fillPath` fills them.
 */
export const supportApiPaths = {
  contact: '/contact',
  adminLogin: '/admin/login',
  adminSecondFactor: '/admin/login/second-factor',
  adminLogout: '/admin/logout',
  adminMe: '/admin/me',
  adminMessages: '/admin/messages',
  adminMessage: '/admin/messages/:id',
  adminMessageReplies: '/admin/messages/:id/replies',
  adminMessageStatus: '/admin/messages/:id/status',
  adminUsers: '/admin/users',
  adminUser: '/admin/users/:id',
  adminUserRobotKill: '/admin/users/:id/robot/kill',
  adminUserGuaranteeRefund: '/admin/users/:id/guarantee-refund',
  adminPromoCodes: '/admin/promo-codes',
  adminPromoCodeRetire: '/admin/promo-codes/:code/retire',
  adminPromoCodeUses: '/admin/promo-codes/:code/uses',
  adminPartnerReport: '/admin/reports/partners',
  adminPartnerReportCsv: '/admin/reports/partners.csv',
  adminAuditLog: '/admin/audit-log',
  adminSystem: '/admin/system',
} as const;

/** A path of `supportApiPaths` with its parameters filled (and encoded). */
export function fillPath(path: string, parameters: Record<string, string>): string {
  return path.replace(/:(\w+)/g, (whole, name: string) => {
    const value = parameters[name];
    return value === undefined ? whole : encodeURIComponent(value);
  });
}

/** Linking a cTrader broker account through Spotware's OAuth2 (decision 091), under apiV1Prefix. */
export const ctraderPaths = {
  /** GET: configured or not, the environment, the accounts of an authorisation under way. */
  status: '/ctrader',
  /** POST: where to send the browser (cTrader ID's granting page, with our state). */
  authorize: '/ctrader/authorize',
  /** POST: the code and state the granting page sent back; answers the accounts granted. */
  callback: '/ctrader/callback',
  /** POST: the account picked among those granted. */
  link: '/ctrader/link',
} as const;

/**
 * The robot on the linked cTrader account's own prices (decision 144), under apiV1Prefix. GET: the
 * last run; POST: run it again.
 */
export const brokerBacktestPaths = { backtest: '/ctrader/backtest' } as const;

/** The web route cTrader ID sends the browser back to (the redirect URI registered at Spotware). */
export const ctraderCallbackRoute = '/link-account/ctrader/callback';
