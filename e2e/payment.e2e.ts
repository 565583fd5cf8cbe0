import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from './support/axe';
import { launchBrowser } from './support/browser';
import { logInDemo, screenshotAt, until } from './support/live-account';
import { startServer, type RunningServer } from './support/server';

/**
 * Paying (issue 10): register, the plans, the simulated provider's hosted checkout (declined
 * card, then the test card that pays), back in the app once the signed event is applied, on
 * to link the account; the free month; the 7-day refund ending access. Its own server: what it
 * does to the demo account must not leak into other files.
 */
const copy = {
  es: {
    name: 'Nombre',
    lastName: 'Apellido',
    email: 'Correo electrónico',
    password: 'Contraseña',
    confirm: 'Repite la contraseña',
    promocode: 'Código promocional (opcional)',
    register: 'Crear cuenta',
    accept: 'Aceptar',
    mustPay: 'Debes pagar tu suscripción para acceder a esta página',
    paymentTitle: 'Pago de la suscripción',
    payMonthly: 'Pagar el Plan mensual',
    monthlyPrice: 'USD 29.00',
    cardName: 'Nombre en la tarjeta',
    cardNumber: 'Número de tarjeta',
    expiry: 'Vencimiento (MM/AA)',
    cvc: 'Código de seguridad (CVC)',
    pay: 'Pagar USD 29.00',
    declined: 'Tu tarjeta fue rechazada',
    waiting: 'Esperamos la confirmación del procesador de pagos',
  },
  pt: {
    name: 'Nome',
    lastName: 'Sobrenome',
    email: 'E-mail',
    password: 'Senha',
    confirm: 'Repita a senha',
    promocode: 'Código promocional (opcional)',
    register: 'Criar conta',
    accept: 'OK',
    mustPay: 'Você precisa pagar sua assinatura para acessar esta página',
    paymentTitle: 'Pagamento da assinatura',
    payMonthly: 'Pagar o Plano mensal',
    monthlyPrice: 'US$ 29,00',
    cardName: 'Nome no cartão',
    cardNumber: 'Número do cartão',
    expiry: 'Validade (MM/AA)',
    cvc: 'Código de segurança (CVC)',
    pay: 'Pagar US$ 29,00',
    declined: 'Seu cartão foi recusado',
    waiting: 'Aguardamos a confirmação do processador de pagamentos',
  },
} as const;
type Language = keyof typeof copy;

let server: RunningServer;
let browser: Browser;
beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
}, 90_000);
afterAll(async () => {
  await browser.close();
  await server.stop();
});

async function newPage(
  language: Language,
  width: number,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: { width, height: 800 },
  });
  await context.addInitScript((stored) => {
    if (!localStorage.getItem('language')) localStorage.setItem('language', stored);
  }, language);
  return { context, page: await context.newPage() };
}

let registrations = 0;
async function register(page: Page, language: Language, promocode = ''): Promise<string> {
  const text = copy[language];
  registrations += 1;
  const email = `pago-${String(registrations)}-${String(Date.now())}@example.com`;
  await page.goto('/register');
  await page.getByLabel(text.name, { exact: true }).fill('María');
  await page.getByLabel(text.lastName).fill('Gonçalves');
  await page.getByLabel(text.email).fill(email);
  await page.getByLabel(text.password, { exact: true }).fill('segura123');
  await page.getByLabel(text.confirm).fill('segura123');
  if (promocode) {
    await page.getByLabel(text.promocode).fill(promocode);
    // The form waits for the code's check before it sends.
    await page
      .getByText(/Código válido/)
      .first()
      .waitFor();
  }
  await page.getByRole('button', { name: text.register }).click();
  return email;
}

async function authorized(page: Page): Promise<boolean> {
  return page.evaluate(async () => {
    const response = await fetch('/core-api/public/api/v1/get-settings', {
      headers: { Authorization: `Bearer ${localStorage.getItem('token') ?? ''}` },
    });
    return ((await response.json()) as { data: { authorized: boolean } }).data.authorized;
  });
}

async function fillCard(page: Page, language: Language, number: string) {
  const text = copy[language];
  await page.getByLabel(text.cardName).fill('María Gonçalves');
  await page.getByLabel(text.cardNumber).fill(number);
  await page.getByLabel(text.expiry).fill('12/34');
  await page.getByLabel(text.cvc).fill('123');
  await page.getByRole('button', { name: text.pay }).click();
}

describe('paying a plan through the simulated checkout', () => {
  it.each([
    ['es', 360],
    ['pt', 1280],
    ['pt', 360],
    ['es', 1280],
  ] as const)(
    'in %s at %i px: register, /payment, a declined card, 4242, back paid, on to /link-account',
    async (language, width) => {
      const text = copy[language];
      const { context, page } = await newPage(language, width);
      try {
        await register(page, language);
        await page.waitForURL('**/payment');
        await page.getByRole('alertdialog').getByText(text.mustPay).waitFor();
        await page.getByRole('button', { name: text.accept }).click();
        await page.getByRole('heading', { level: 1, name: text.paymentTitle }).waitFor();
        await page.getByText(text.monthlyPrice).first().waitFor();
        const name = `payment-${language}`;
        await screenshotAt(page, name, width);
        if (width === 360) expect(await seriousAxeViolations(page)).toEqual([]);

        await page.getByRole('button', { name: text.payMonthly }).click();
        await page.waitForURL('**/sim-pay/checkout/**');
        expect(await page.getByLabel(text.cardNumber).getAttribute('autocomplete')).toBe(
          'cc-number',
        );
        await fillCard(page, language, '4000 0000 0000 0002');
        await page.getByRole('alert').getByText(text.declined).waitFor();
        await screenshotAt(page, `sim-checkout-declined-${language}`, width);
        expect(await authorized(page)).toBe(false);

        await fillCard(page, language, '4242 4242 4242 4242');
        // Back in the app: the return page waits for the provider's event, then moves on.
        await page.waitForURL('**/link-account', { timeout: 20_000 });
        expect(await authorized(page)).toBe(true);
      } finally {
        await context.close();
      }
    },
    60_000,
  );

  it('the return page shows its progress while it waits for the provider', async () => {
    const { context, page } = await newPage('es', 1280);
    try {
      await register(page, 'es');
      await page.waitForURL('**/payment');
      await page.getByRole('button', { name: 'Aceptar' }).click();
      // An unpaid checkout: the redirect alone proves nothing, the page keeps waiting.
      const sessionId = await page.evaluate(async () => {
        const response = await fetch('/core-api/public/api/v1/billing/checkout', {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${localStorage.getItem('token') ?? ''}`,
            'Content-Type': 'application/json',
          },
          body: JSON.stringify({ plan: 'yearly' }),
        });
        return ((await response.json()) as { data: { sessionId: string } }).data.sessionId;
      });
      await page.goto(`/payment/return?session_id=${sessionId}`);
      await page.getByRole('status').getByText(copy.es.waiting).waitFor();
      await page.waitForTimeout(2500);
      expect(page.url()).toContain('/payment/return');
      expect(await authorized(page)).toBe(false);
    } finally {
      await context.close();
    }
  });
});

describe('the free month', () => {
  it('MESGRATIS at registration: authorized without a card, and the end date is shown', async () => {
    const { context, page } = await newPage('es', 360);
    try {
      await register(page, 'es', 'MESGRATIS');
      await page.waitForURL('**/link-account');
      const dialog = page.getByRole('alertdialog');
      await dialog
        .getByText(/Tu mes gratis ya está activo: termina el \d{1,2} de \w+ de \d{4}/)
        .waitFor();
      await page.getByRole('button', { name: 'Aceptar' }).click();
      expect(await authorized(page)).toBe(true);
      await page.goto('/payment');
      await page.getByText(/Estás en tu mes gratis hasta el \d{1,2} de \w+ de \d{4}/).waitFor();
      await page.getByRole('button', { name: 'Suscribirme al Plan anual' }).waitFor();
      await screenshotAt(page, 'payment-free-month', 360);
    } finally {
      await context.close();
    }
  });
});

describe('the billing section of the profile', () => {
  it('shows the plan, the next charge and the payment; a refund within 7 days ends access', async () => {
    const { context, page } = await newPage('es', 1280);
    try {
      // The demo user is linked; it pays like anyone (it had no subscription).
      await logInDemo(page);
      await page.goto('/payment');
      await page.getByRole('button', { name: 'Pagar el Plan mensual' }).click();
      await page.waitForURL('**/sim-pay/checkout/**');
      await fillCard(page, 'es', '4242 4242 4242 4242');
      await page.waitForURL('**/dashboard', { timeout: 20_000 });

      await page.goto('/profile-config');
      const section = page.getByRole('region', { name: 'Suscripción y pagos' });
      await section.getByText('Plan mensual').first().waitFor();
      await section.getByText('Activa').waitFor();
      await section.getByText(/USD.29\.00 el \d{1,2} de \w+ de \d{4}/).waitFor();
      await section.getByText('Visa terminada en 4242').waitFor();
      await screenshotAt(page, 'profile-billing', 1280);
      await screenshotAt(page, 'profile-billing', 360);
      expect(await seriousAxeViolations(page)).toEqual([]);

      await section.getByRole('button', { name: 'Pedir el reembolso' }).click();
      const confirm = page.getByRole('alertdialog');
      await confirm.getByText('No se puede deshacer').waitFor();
      await confirm.getByRole('button', { name: 'Sí, reembolsar y terminar' }).click();
      await page.getByText('Te devolvimos el pago. Tu suscripción terminó.').waitFor();
      await section.getByText('Reembolsada').waitFor();
      await until(async () => !(await authorized(page)), 'access to end');

      // Access ended: the payment-gated screens send the user back to pay.
      await page.goto('/dashboard');
      await page.waitForURL('**/payment');
      await page.getByRole('alertdialog').getByText(copy.es.mustPay).waitFor();
    } finally {
      await context.close();
    }
  }, 90_000);
});
