// @vitest-environment happy-dom
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { changeLanguage, loadNamespaces } from '../lib/i18n';
import { queryClient } from '../lib/query-client';
import { PromocodeForm } from './promocode-form';

/**
 * The server's answers: the code checks as valid, then is refused when applied, as when it
 * ended or ran out between the check and the click (the 422 of PromoCodeInvalid).
 */
function codeEndsBeforeApply(message: string) {
  const fetchMock = vi.fn((url: string) =>
    Promise.resolve(
      url.endsWith('/api/v1/validate-promocode')
        ? new Response(JSON.stringify({ data: { valid: true, benefit: 'free_month' } }))
        : new Response(
            JSON.stringify({
              code: 'VALIDATION_FAILED',
              message,
              errors: { promocode: [message] },
            }),
            { status: 422 },
          ),
    ),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('the promo code form on /payment (issue 39)', () => {
  beforeAll(async () => {
    await loadNamespaces(['billing']);
  });
  afterEach(async () => {
    cleanup();
    queryClient.clear();
    vi.unstubAllGlobals();
    await changeLanguage('es');
  });

  it.each([
    [
      'es',
      'El código promocional es inválido',
      'Código válido: tienes un mes gratis',
      'Aplicar el código',
      'venció o se agotó después de que lo comprobamos',
    ],
    [
      'pt',
      'O código promocional é inválido',
      'Código válido: você tem um mês grátis',
      'Aplicar o código',
      'expirou ou se esgotou depois que o verificamos',
    ],
  ] as const)(
    'in %s: a code checked as valid and refused when applied is said to have ended since, and no longer called valid',
    async (language, serverMessage, valid, submit, ended) => {
      await changeLanguage(language);
      const fetchMock = codeEndsBeforeApply(serverMessage);
      render(
        <QueryClientProvider client={queryClient}>
          <PromocodeForm />
        </QueryClientProvider>,
      );
      fireEvent.change(screen.getByLabelText(/^Código promocional/), {
        target: { value: 'MESGRATIS' },
      });
      await screen.findByText(valid);
      fireEvent.click(screen.getByRole('button', { name: submit }));

      await screen.findByText(new RegExp(ended));
      expect(screen.queryByText(valid)).toBeNull();
      expect(screen.queryByText(serverMessage)).toBeNull();
      expect(
        fetchMock.mock.calls.filter(([url]) => url.endsWith('/api/v1/update-promocode')),
      ).toHaveLength(1);
    },
  );
});
