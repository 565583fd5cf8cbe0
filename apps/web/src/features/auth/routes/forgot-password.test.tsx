// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, loadNamespaces } from '../../../lib/i18n';
import { routePath } from '../../../lib/route-paths';
import ForgotPasswordRoute from './forgot-password';
import SetPasswordRoute from './set-password';

/** Forgot password, with Set password behind its links, as the app routes them. */
function renderForgotPassword() {
  const router = createMemoryRouter(
    [
      { path: routePath('ForgotPassword'), element: <ForgotPasswordRoute /> },
      { path: routePath('SetPassword'), element: <SetPasswordRoute /> },
    ],
    { initialEntries: [routePath('ForgotPassword')] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('forgot password, "I already have a code" (issue 39)', () => {
  beforeAll(async () => {
    await loadNamespaces(['auth', 'forms']);
  });
  afterEach(async () => {
    cleanup();
    sessionStorage.clear();
    await changeLanguage('es');
  });

  it.each([
    ['es', 'Correo electrónico', 'Ya tengo un código'],
    ['pt', 'E-mail', 'Já tenho um código'],
  ] as const)(
    'carries the e-mail typed on to Set password, not in the URL (%s)',
    async (language, label, link) => {
      await changeLanguage(language);
      const router = renderForgotPassword();
      fireEvent.change(screen.getByLabelText(label), { target: { value: ' ana@example.com ' } });
      fireEvent.click(await screen.findByRole('link', { name: link }));

      expect(await screen.findByLabelText(label)).toHaveProperty('value', 'ana@example.com');
      expect(router.state.location.pathname).toBe(routePath('SetPassword'));
      expect(router.state.location.search).toBe('');
    },
  );
});
