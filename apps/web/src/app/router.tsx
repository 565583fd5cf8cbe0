import { createBrowserRouter } from 'react-router';
import { RootLayout } from './root-layout';

/** Every screen loads lazily, in its own chunk (spec §2). */
export const router = createBrowserRouter([
  {
    path: '/',
    Component: RootLayout,
    children: [
      {
        index: true,
        lazy: async () => ({ Component: (await import('../features/home/routes/home')).HomeRoute }),
      },
      {
        path: '*',
        lazy: async () => ({
          Component: (await import('../features/not-found/routes/not-found')).NotFoundRoute,
        }),
      },
    ],
  },
]);
