// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { changeLanguage, loadNamespaces } from '../../../lib/i18n';
import { routePath } from '../../../lib/route-paths';
import RegisterRoute from './register';

/** The server's answer to POST /api/v1/register: 202 and this browser's nonce (decision 085). */
function answerRegistration() {
  const fetchMock = vi.fn((url: string) =>
    Promise.resolve(
      url.endsWith('/api/v1/register')
        ? new Response(JSON.stringify({ data: { nonce: 'n'.repeat(43) } }), { status: 202 })
        : new Response('{}', { status: 404 }),
    ),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('register, then "check your inbox" (issue 39)', () => {
  beforeAll(async () => {
    await loadNamespaces(['auth', 'forms']);
  });
  afterEach(async () => {
    cleanup();
    vi.unstubAllGlobals();
    localStorage.clear();
    window.scrollTo(0, 0);
    await changeLanguage('es');
  });

  it.each([
    [
      'es',
      ['Nombre', 'Apellido', 'Correo electrónico', 'Contraseña', 'Repite la contraseña'],
      'Crear cuenta',
      'Revisa tu correo',
    ],
    [
      'pt',
      ['Nome', 'Sobrenome', 'E-mail', 'Senha', 'Repita a senha'],
      'Criar conta',
      'Confira seu e-mail',
    ],
  ] as const)(
    'opens at the top with the focus on its heading, wherever the form was scrolled to (%s)',
    async (language, labels, submit, title) => {
      await changeLanguage(language);
      const fetchMock = answerRegistration();
      const router = createMemoryRouter(
        [{ path: routePath('Register'), element: <RegisterRoute /> }],
        { initialEntries: [routePath('Register')] },
      );
      render(<RouterProvider router={router} />);
      const values = ['Ana', 'Souza', 'ana@example.com', 'segura123', 'segura123'];
      labels.forEach((label, index) => {
        fireEvent.change(screen.getByLabelText(label), {
          target: { value: values[index] },
        });
      });
      fireEvent.click(screen.getByRole('checkbox', { name: /privacidad|privacidade/ }));
      // A phone scrolled down to the button at the end of the form.
      window.scrollTo(0, 1800);
      expect(window.scrollY).toBe(1800);
      fireEvent.click(screen.getByRole('button', { name: submit }));

      const heading = await screen.findByRole('heading', { name: title });
      expect(fetchMock).toHaveBeenCalledOnce();
      expect(window.scrollY).toBe(0);
      expect(document.activeElement).toBe(heading);
    },
  );
});
