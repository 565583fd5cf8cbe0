// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { changeLanguage, loadNamespaces } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';
import { routePath } from '../../../lib/route-paths';
import RegisterRoute from './register';

/**
 * The server's answer to POST /api/v1/register: 202 and this browser's nonce (decision 085); to
 * validate-promocode, MESGRATIS is a free month and any other code is refused.
 */
function answerRegistration() {
  const fetchMock = vi.fn((url: string, init?: RequestInit) => {
    if (url.endsWith('/api/v1/validate-promocode')) {
      const { promocode } = JSON.parse(init?.body as string) as { promocode: string };
      return Promise.resolve(
        new Response(
          JSON.stringify({
            data:
              promocode === 'MESGRATIS'
                ? { valid: true, benefit: 'free_month' }
                : { valid: false, benefit: null },
          }),
        ),
      );
    }
    return Promise.resolve(
      url.endsWith('/api/v1/register')
        ? new Response(JSON.stringify({ data: { nonce: 'n'.repeat(43) } }), { status: 202 })
        : new Response('{}', { status: 404 }),
    );
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('register, then "check your inbox" (issue 39)', () => {
  beforeAll(async () => {
    await loadNamespaces(['auth', 'forms']);
  });
  afterEach(async () => {
    cleanup();
    queryClient.clear();
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

  /** Fills the form as a newcomer would, with the promo code typed last. */
  function fillForm(promocode: string) {
    const router = createMemoryRouter(
      [{ path: routePath('Register'), element: <RegisterRoute /> }],
      { initialEntries: [routePath('Register')] },
    );
    render(<RouterProvider router={router} />);
    const values = {
      Nombre: 'Ana',
      Apellido: 'Souza',
      'Correo electrónico': 'ana@example.com',
      Contraseña: 'segura123',
      'Repite la contraseña': 'segura123',
    };
    for (const [label, value] of Object.entries(values))
      fireEvent.change(screen.getByLabelText(label), { target: { value } });
    fireEvent.click(screen.getByRole('checkbox', { name: /privacidad/ }));
    fireEvent.change(screen.getByLabelText('Código promocional (opcional)'), {
      target: { value: promocode },
    });
  }

  const registerCalls = (fetchMock: ReturnType<typeof answerRegistration>) =>
    fetchMock.mock.calls.filter(([url]) => url.endsWith('/api/v1/register'));

  it('sends at the first "Crear cuenta" pressed while the code typed last is still being checked (issue 39 point 3)', async () => {
    const fetchMock = answerRegistration();
    fillForm('MESGRATIS');
    // Pressed at once: the code's check (after a pause in typing) has not even started.
    expect(screen.getByText('Comprobando el código…')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Crear cuenta' }));

    await screen.findByRole('heading', { name: 'Revisa tu correo' });
    const [[, init]] = registerCalls(fetchMock) as [[string, RequestInit]];
    expect(JSON.parse(init.body as string)).toMatchObject({ promocode: 'MESGRATIS' });
  });

  it('holds back a form whose code, checked at the click, is refused: the field says so and takes the focus', async () => {
    const fetchMock = answerRegistration();
    fillForm('NO-SUCH-CODE');
    fireEvent.click(screen.getByRole('button', { name: 'Crear cuenta' }));

    await screen.findByText('El código promocional es inválido');
    await waitFor(() => {
      expect(document.activeElement).toBe(screen.getByLabelText('Código promocional (opcional)'));
    });
    expect(registerCalls(fetchMock)).toHaveLength(0);
  });
});
