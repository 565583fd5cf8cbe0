import { renderToStaticMarkup } from 'react-dom/server';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { routes } from '../app/router';

/**
 * Renders the page at `path` through the app's own route tree and layouts, once its loaders
 * settled: the markup, and the router's state then (its location and errors).
 */
export async function renderRoute(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  await new Promise<void>((resolve) => {
    if (router.state.initialized) resolve();
    else
      router.subscribe((state) => {
        if (state.initialized) resolve();
      });
  });
  const { location, errors } = router.state;
  const html = renderToStaticMarkup(<RouterProvider router={router} />);
  router.dispose();
  return { html, location, errors };
}
