// @vitest-environment happy-dom
import type { Language } from '@tradebot/contract';
import { plans } from '@tradebot/contract/constants';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatCents } from '../../../lib/format';
import { changeLanguage, loadNamespaces } from '../../../lib/i18n';
import BrokerStepRoute from './broker-step';

/** The five step pages under both prefixes, with the handles the app's router gives them. */
function renderStep(path: string) {
  const routes = ['/searching-broker', '/how-it-works'].flatMap((base) =>
    [1, 2, 3, 4, 5].map((step) => ({
      path: step === 1 ? base : `${base}/${String(step)}`,
      element: <BrokerStepRoute />,
      handle: { step, stepBase: base },
    })),
  );
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

const texts = {
  es: {
    topics: [
      'Del registro a la primera operación',
      'Qué hace el robot',
      'Dónde está tu dinero',
      'Cómo cierra cada operación',
      'Cuánto cuesta',
    ],
    // What each page must explain, as the brief of issue 39 lists it.
    explains: [
      ['plataforma integrada', 'dinero simulado'],
      ['10% del capital disponible por operación', '50% del capital'],
      ['tu dinero queda en esa cuenta, a tu nombre', 'su saldo es dinero simulado'],
      ['un pip por encima del spread', 'cinco veces esa distancia', 'no promete ninguna ganancia'],
      ['por mes', 'por año', 'primer pago'],
    ],
    question: 'Encuentra tu bróker: pregunta 1 de 5',
    firstQuestion: '¿Dónde vives?',
    next: 'Paso siguiente',
    required: 'Responde esta pregunta para continuar.',
    unanswered: 'Falta responder el paso 1.',
  },
  pt: {
    topics: [
      'Do cadastro à primeira operação',
      'O que o robô faz',
      'Onde está o seu dinheiro',
      'Como cada operação fecha',
      'Quanto custa',
    ],
    explains: [
      ['plataforma integrada', 'dinheiro simulado'],
      ['10% do capital disponível por operação', '50% do capital'],
      ['seu dinheiro fica nessa conta, em seu nome', 'o saldo é dinheiro simulado'],
      ['um pip acima do spread', 'cinco vezes essa distância', 'não promete nenhum lucro'],
      ['por mês', 'por ano', 'primeiro pagamento'],
    ],
    question: 'Encontre sua corretora: pergunta 1 de 5',
    firstQuestion: 'Onde você mora?',
    next: 'Próximo passo',
    required: 'Responda esta pergunta para continuar.',
    unanswered: 'Falta responder o passo 1.',
  },
} as const satisfies Record<Language, unknown>;

describe('how it works (issue 39)', () => {
  beforeAll(async () => {
    await loadNamespaces(['broker', 'forms']);
  });
  afterEach(async () => {
    cleanup();
    sessionStorage.clear();
    await changeLanguage('es');
  });

  it.each(['es', 'pt'] as const)(
    'explains the product on each of its five pages, question optional (%s)',
    async (language) => {
      await changeLanguage(language);
      const said = texts[language];
      const router = renderStep('/how-it-works');

      // The stepper names what each page explains, as links.
      const stepper = screen.getByRole('navigation');
      const links = within(stepper).getAllByRole('link');
      expect(links.map((link) => link.textContent)).toEqual(
        said.topics.map((topic, index) => `${String(index + 1)}${topic}`),
      );

      for (const [index, topic] of said.topics.entries()) {
        const step = index + 1;
        const title = await screen.findByRole('heading', { level: 1, name: topic });
        const explanation = title.parentElement?.textContent ?? '';
        for (const claim of said.explains[index] ?? []) expect(explanation).toContain(claim);
        if (step === 1) {
          // The step's question follows the explanation, under a heading of its own.
          expect(screen.getByText(said.question)).toBeTruthy();
          expect(screen.getByRole('heading', { level: 2, name: said.firstQuestion })).toBeTruthy();
        }
        if (step === 5) {
          // The plans' prices, from the contract, as the plans write them.
          for (const plan of [plans.monthly, plans.yearly])
            expect(explanation).toContain(formatCents(language, plan.priceCents));
          break;
        }
        // Unanswered, the next page still opens: the reader came for the explanation.
        fireEvent.click(screen.getByRole('button', { name: said.next }));
        await screen.findByRole('heading', { level: 1, name: said.topics[step] });
        expect(screen.queryByText(said.required)).toBeNull();
        expect(router.state.location.pathname).toBe(`/how-it-works/${String(step + 1)}`);
      }
      // The results say which answer is missing and lead to it.
      expect(screen.getByText(said.unanswered)).toBeTruthy();
    },
  );

  it.each(['es', 'pt'] as const)('leaves the broker search a search (%s)', async (language) => {
    await changeLanguage(language);
    const said = texts[language];
    const router = renderStep('/searching-broker');
    await screen.findByRole('heading', { level: 1, name: said.firstQuestion });
    expect(screen.queryByRole('heading', { name: said.topics[0] })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: said.next }));
    expect(await screen.findByText(said.required)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/searching-broker');
  });
});
