import type { ComponentType } from 'react';
import { redirect, type RouteObject } from 'react-router';
import { loadNamespaces, type Namespace } from '../lib/i18n';
import { guardLoader } from './guard-loader';
import { RootLayout } from './root-layout';
import { PageError, ShellError } from './route-errors';
import type { RouteFlags } from '../lib/route-paths';
import { PageLoader } from '../components/ui/page-loader';

type RouteModule = () => Promise<{ default: ComponentType }>;

/**
 * One route of spec §2: its guard flags (as `handle`, and in a loader that runs the guards
 * on every navigation), its screen loaded lazily in its own chunk, and the catalogues the
 * screen needs, fetched alongside.
 */
function page(
  path: string,
  load: RouteModule,
  options: { flags?: RouteFlags; namespaces?: Namespace[]; handle?: Record<string, unknown> } = {},
): RouteObject {
  const flags = options.flags ?? {};
  return {
    path,
    handle: { ...flags, ...options.handle },
    loader: guardLoader(flags),
    lazy: async () => {
      const [module] = await Promise.all([load(), loadNamespaces(options.namespaces ?? [])]);
      return { Component: module.default };
    },
  };
}

const brokerSteps = () => import('../features/broker/routes/broker-step');
const stepPages = (base: string) =>
  [1, 2, 3, 4, 5].map((step) =>
    page(step === 1 ? base : `${base}/${String(step)}`, brokerSteps, {
      namespaces: ['broker', 'forms'],
      handle: { step, stepBase: `/${base}` },
    }),
  );

/** The layouts that give their screens TanStack Query's client (router.test.ts checks them). */
export const serverStateLayoutId = 'server-state';
export const liveAccountLayoutId = 'live-account';

const authOnly: RouteFlags = { requiresAuth: true };
const onboarded: RouteFlags = { requiresAuth: true, requiresLinking: true, requiresPayment: true };

/** A screen of the support console: lazy, in its own chunk, with the admin catalogue. */
function adminScreen(path: string, load: RouteModule): RouteObject {
  return {
    path,
    lazy: async () => {
      const [module] = await Promise.all([load(), loadNamespaces(['admin', 'forms'])]);
      return { Component: module.default };
    },
  };
}

export const routes: RouteObject[] = [
  {
    // The support console (docs/decisions/057): its own shell, session and guard, outside the
    // users' layout and their guards.
    path: '/admin',
    HydrateFallback: PageLoader,
    errorElement: <ShellError />,
    lazy: async () => {
      const [module] = await Promise.all([
        import('../features/admin/routes/admin-layout'),
        loadNamespaces(['admin', 'forms']),
      ]);
      return { Component: module.default };
    },
    children: [
      { index: true, loader: () => redirect('/admin/messages') },
      adminScreen('login', () => import('../features/admin/routes/admin-login')),
      adminScreen('messages', () => import('../features/admin/routes/inbox')),
      adminScreen('messages/:id', () => import('../features/admin/routes/message')),
      adminScreen('users', () => import('../features/admin/routes/users')),
      adminScreen('users/:id', () => import('../features/admin/routes/user')),
      adminScreen('promo-codes', () => import('../features/admin/routes/promo-codes')),
      adminScreen('partners', () => import('../features/admin/routes/partners')),
      adminScreen('audit-log', () => import('../features/admin/routes/audit-log')),
      adminScreen('system', () => import('../features/admin/routes/system')),
      adminScreen('*', async () => ({
        default: (await import('../components/not-found-page')).NotFoundPage,
      })),
    ],
  },
  {
    path: '/',
    Component: RootLayout,
    HydrateFallback: PageLoader,
    errorElement: <ShellError />,
    children: [
      {
        errorElement: <PageError />,
        children: [
          page('', () => import('../features/home/routes/home'), {
            namespaces: ['home', 'plans', 'track-record'],
          }),
          page('asked-questions', () => import('../features/public/routes/faq'), {
            namespaces: ['faq'],
          }),
          page('terms-and-conditions', () => import('../features/public/routes/terms'), {
            namespaces: ['legal'],
          }),
          page('privacy-policy', () => import('../features/public/routes/privacy'), {
            namespaces: ['legal'],
          }),
          page('track-record', () => import('../features/track-record/routes/track-record'), {
            namespaces: ['track-record'],
          }),
          ...stepPages('searching-broker'),
          ...stepPages('how-it-works'),
          page('contact', () => import('../features/support/routes/contact'), {
            namespaces: ['support', 'forms'],
            flags: authOnly,
          }),
          {
            id: serverStateLayoutId,
            lazy: async () => ({
              Component: (await import('./server-state-layout')).default,
            }),
            children: [
              page('payment', () => import('../features/billing/routes/payment'), {
                namespaces: ['billing', 'plans', 'linking'],
                flags: { ...authOnly, name: 'Payment' },
              }),
              page('payment/return', () => import('../features/billing/routes/payment-return'), {
                namespaces: ['billing'],
                flags: authOnly,
              }),
              // Every signed-in user, paid and linked or not: deleting an account never waits
              // on a payment (decision 080).
              page(
                'account-settings',
                () => import('../features/account-settings/routes/account-settings'),
                {
                  namespaces: ['account-settings', 'forms', 'linking'],
                  flags: { ...authOnly, name: 'AccountSettings' },
                },
              ),
              // The links an e-mail change mails (decision 089): no session needed, since
              // they may be opened on another device.
              page(
                'confirm-email',
                () => import('../features/account-settings/routes/confirm-email'),
                { namespaces: ['account-settings', 'forms'] },
              ),
              page('link-account', () => import('../features/linking/routes/link-account'), {
                namespaces: ['linking', 'forms'],
                flags: {
                  name: 'LinkAccount',
                  requiresAuth: true,
                  requiresUnlinked: true,
                  requiresPayment: true,
                },
              }),
              // Where cTrader ID sends the user back (decision 091), under the same guards.
              page(
                'link-account/ctrader/callback',
                () => import('../features/linking/routes/ctrader-callback'),
                {
                  namespaces: ['linking', 'forms'],
                  flags: { requiresAuth: true, requiresUnlinked: true, requiresPayment: true },
                },
              ),
            ],
          },
          {
            // Server state (TanStack Query) for the live-account screens only.
            id: liveAccountLayoutId,
            lazy: async () => ({
              Component: (await import('./live-account-layout')).default,
            }),
            children: [
              page('dashboard', () => import('../features/dashboard/routes/dashboard'), {
                namespaces: ['dashboard', 'robot-settings', 'linking'],
                flags: { ...onboarded, name: 'Dashboard', readOnlyWithoutPayment: true },
              }),
              page(
                'profile-config',
                () => import('../features/robot-settings/routes/profile-config'),
                { namespaces: ['robot-settings', 'billing', 'plans'], flags: onboarded },
              ),
            ],
          },
          page(
            'trading-platform-login',
            () => import('../features/linking/routes/trading-platform-login'),
            { namespaces: ['linking', 'forms'], flags: { ...authOnly, name: 'TradearLogin' } },
          ),
          page('register', () => import('../features/auth/routes/register'), {
            flags: { requiresUnauth: true, name: 'Register' },
            namespaces: ['auth', 'forms'],
          }),
          page('login', () => import('../features/auth/routes/login'), {
            flags: { requiresUnauth: true, name: 'Login' },
            namespaces: ['auth', 'forms'],
          }),
          page('forgot-password', () => import('../features/auth/routes/forgot-password'), {
            namespaces: ['auth', 'forms'],
          }),
          page('set-password', () => import('../features/auth/routes/set-password'), {
            namespaces: ['auth', 'forms'],
          }),
          page('promo/mesgratis', () => import('../features/promo/routes/free-month'), {
            namespaces: ['promo', 'forms'],
          }),
          // React Router matches whole segments only: "robotbitcoin-{broker}" is checked by
          // the screen, which shows the not-found page for any other promo path.
          page('promo/:campaign', () => import('../features/promo/routes/robot-bitcoin'), {
            namespaces: ['promo', 'forms'],
          }),
          page('*', async () => ({
            default: (await import('../components/not-found-page')).NotFoundPage,
          })),
        ],
      },
    ],
  },
];
