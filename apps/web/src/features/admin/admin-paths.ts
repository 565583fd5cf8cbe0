/** The console's screens (docs/decisions/057). */
export const adminPaths = {
  login: '/admin/login',
  inbox: '/admin/messages',
  users: '/admin/users',
  promoCodes: '/admin/promo-codes',
  partners: '/admin/partners',
  audit: '/admin/audit-log',
  system: '/admin/system',
} as const;
