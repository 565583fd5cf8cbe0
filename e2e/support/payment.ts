import type { Page } from 'playwright-core';
import { followConfirmationLink } from './registration';

/** The words the payment path shows, in both languages (issue 10). */
export const paymentCopy = {
  es: {
    name: 'Nombre',
    lastName: 'Apellido',
    email: 'Correo electrónico',
    password: 'Contraseña',
    confirm: 'Repite la contraseña',
    promocode: 'Código promocional (opcional)',
    register: 'Crear cuenta',
    // Unticked, and required (decision 087).
    privacyConsent: /^Consiento el tratamiento de mis datos personales/,
    // Its label must not contain the e-mail field's (getByLabel matches substrings).
    newsletter: /^Quiero recibir el boletín de Tradebot/,
    checkInbox: 'Revisa tu correo',
    accept: 'Aceptar',
    mustPay: 'Debes pagar tu suscripción para acceder a esta página',
    welcome: 'Tu cuenta está lista',
    platformTitle: 'Dónde operará el robot',
    simulated: 'Tradebot Demo es una plataforma de trading con dinero simulado',
    chosen: 'El plan que elegiste',
    startYearly: 'Empezar con el Plan anual',
    yearlyName: 'Plan anual',
    monthlyName: 'Plan mensual',
    paymentTitle: 'Pago de la suscripción',
    payMonthly: 'Pagar el Plan mensual',
    // The web app writes money the reader's country's way (decision 089): the test server
    // places loopback addresses in Argentina (spec §8's fallback), so "US$ 29,00".
    monthlyPrice: 'US$ 29,00',
    cardName: 'Nombre en la tarjeta',
    cardNumber: 'Número de tarjeta',
    expiry: 'Vencimiento (MM/AA)',
    cvc: 'Código de seguridad (CVC)',
    pay: /^Pagar US\$\s?29,00$/,
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
    privacyConsent: /^Consinto com o tratamento dos meus dados pessoais/,
    newsletter: /^Quero receber a newsletter do Tradebot/,
    checkInbox: 'Confira seu e-mail',
    accept: 'OK',
    mustPay: 'Você precisa pagar sua assinatura para acessar esta página',
    welcome: 'Sua conta está pronta',
    platformTitle: 'Onde o robô vai operar',
    simulated: 'Tradebot Demo é uma plataforma de trading com dinheiro simulado',
    chosen: 'O plano que você escolheu',
    startYearly: 'Começar com o Plano anual',
    yearlyName: 'Plano anual',
    monthlyName: 'Plano mensal',
    paymentTitle: 'Pagamento da assinatura',
    payMonthly: 'Pagar o Plano mensal',
    monthlyPrice: 'US$ 29,00',
    cardName: 'Nome no cartão',
    cardNumber: 'Número do cartão',
    expiry: 'Validade (MM/AA)',
    cvc: 'Código de segurança (CVC)',
    pay: /^Pagar US\$\s?29,00$/,
    declined: 'Seu cartão foi recusado',
    waiting: 'Aguardamos a confirmação do processador de pagamentos',
  },
} as const;
export type PaymentLanguage = keyof typeof paymentCopy;

let registrations = 0;

/**
 * Registers a new user through the form and follows the confirmation link mailed to it (into
 * `dataDir`, the server's) in the same browser; resolves with its e-mail.
 */
export async function registerThroughForm(
  page: Page,
  dataDir: string,
  language: PaymentLanguage,
  promocode = '',
): Promise<string> {
  const text = paymentCopy[language];
  registrations += 1;
  const email = `pago-${String(registrations)}-${String(Date.now())}@example.com`;
  await page.goto('/register');
  await page.getByLabel(text.name, { exact: true }).fill('María');
  await page.getByLabel(text.lastName).fill('Gonçalves');
  await page.getByLabel(text.email).fill(email);
  await page.getByLabel(text.password, { exact: true }).fill('segura123');
  await page.getByLabel(text.confirm).fill('segura123');
  await page.getByRole('checkbox', { name: text.privacyConsent }).check();
  if (promocode) {
    await page.getByLabel(text.promocode).fill(promocode);
    // The form waits for the code's check before it sends.
    await page
      .getByText(/Código válido/)
      .first()
      .waitFor();
  }
  await page.getByRole('button', { name: text.register }).click();
  await page.getByRole('heading', { level: 1, name: text.checkInbox }).waitFor();
  await followConfirmationLink(page, dataDir, email);
  return email;
}

/** The user's `authorized` flag as the server has it now. */
export async function authorized(page: Page): Promise<boolean> {
  return page.evaluate(async () => {
    const response = await fetch('/core-api/public/api/v1/get-settings', {
      headers: { Authorization: `Bearer ${localStorage.getItem('token') ?? ''}` },
    });
    return ((await response.json()) as { data: { authorized: boolean } }).data.authorized;
  });
}

/** Fills the simulated checkout's card form and pays. */
export async function fillCard(page: Page, language: PaymentLanguage, number: string) {
  const text = paymentCopy[language];
  await page.getByLabel(text.cardName).fill('María Gonçalves');
  await page.getByLabel(text.cardNumber).fill(number);
  await page.getByLabel(text.expiry).fill('12/34');
  await page.getByLabel(text.cvc).fill('123');
  await page.getByRole('button', { name: text.pay }).click();
}
