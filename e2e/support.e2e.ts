import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generate } from 'otplib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from './support/axe';
import { createAdminWithCli } from './support/admin';
import { launchBrowser } from './support/browser';
import { logInDemo, screenshotAt } from './support/live-account';
import { latestMailTo } from './support/mailbox';
import { authorized, fillCard, paymentCopy, registerThroughForm } from './support/payment';
import { startServer, type RunningServer } from './support/server';

const admin = {
  email: 'soporte@tradebot.test',
  name: 'Sofía Soporte',
  password: 'consola-segura-2026',
};
const demoEmail = 'demo@tradebot.app';
const subject = 'Consulta sobre mi cuenta';
const question = 'Hola, quiero saber cuando se acredita mi deposito.';
const answer = 'Hola Demo, tu deposito ya esta acreditado.';

/** How far the page scrolls sideways: 0 when only wide tables scroll, inside their frame. */
function pageOverflow(page: Page): Promise<number> {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
}

describe('contact and the support console (issue 13)', () => {
  const state = {} as {
    dataDir: string;
    secret: string;
    server: RunningServer;
    browser: Browser;
    contexts: BrowserContext[];
    /** The admin's signed-in page (a TOTP code signs in once per 30 s step). */
    desk: Page;
  };

  beforeAll(async () => {
    state.dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tradebot-e2e-support-'));
    // The embedded database opens in one process at a time: the admin is created first.
    const created = await createAdminWithCli(state.dataDir, admin);
    expect(created.stdout).toMatch(/^otpauth URI: otpauth:\/\/totp\/.*secret=/m);
    state.secret = created.secret;
    state.server = await startServer({ ROBOT_ENABLED: 'false' }, { dataDir: state.dataDir });
    state.browser = await launchBrowser();
    state.contexts = [];
    // admin:create and a server start, each a minute on a loaded two-core machine.
  }, 300_000);

  afterAll(async () => {
    for (const context of state.contexts) await context.close();
    await state.browser.close();
    await state.server.stop();
    await fs.rm(state.dataDir, { recursive: true, force: true });
  });

  async function newPage(width = 1280): Promise<Page> {
    const context = await state.browser.newContext({
      baseURL: state.server.url,
      viewport: { width, height: 900 },
    });
    state.contexts.push(context);
    return context.newPage();
  }

  it('a user sends a message; an admin signs in with TOTP, sees it and replies by e-mail', async () => {
    const user = await newPage();
    await logInDemo(user);
    await user.goto('/contact');
    await user.getByRole('heading', { level: 1, name: 'Atención al cliente' }).waitFor();
    await user.getByLabel('Asunto').fill(subject);
    await user.getByLabel('Mensaje', { exact: true }).fill(question);
    await user.getByRole('button', { name: 'Enviar mensaje' }).click();
    await user.getByText('Mensaje enviado correctamente').waitFor();
    await user.getByText(/Te responderemos a más tardar el/).waitFor();
    await screenshotAt(user, 'contact', 360);
    expect(await seriousAxeViolations(user)).toEqual([]);
    const acknowledgement = await latestMailTo(state.dataDir, demoEmail);
    expect(acknowledgement).toContain(`Subject: Recibimos tu mensaje: ${subject}`);

    const desk = await newPage(768);
    state.desk = desk;
    await desk.goto('/admin');
    await desk.waitForURL('**/admin/login');
    await desk.getByLabel('Correo electrónico').fill(admin.email);
    await desk.getByLabel('Contraseña').fill(admin.password);
    await desk.getByRole('button', { name: 'Continuar' }).click();
    const code = await generate({ secret: state.secret });
    await desk.getByLabel('Código de verificación').fill(code);
    await desk.getByRole('button', { name: 'Verificar y entrar' }).click();
    await desk.waitForURL('**/admin/messages');
    await desk.getByRole('heading', { level: 1, name: 'Mensajes' }).waitFor();
    const row = desk.getByRole('row').filter({ hasText: subject });
    await row.waitFor();
    expect(await row.textContent()).toContain(demoEmail);
    expect(await row.textContent()).toContain('Abierto');
    await screenshotAt(desk, 'admin-inbox', 768);
    expect(await pageOverflow(desk)).toBe(0);
    expect(await seriousAxeViolations(desk)).toEqual([]);

    await row.getByRole('link', { name: subject }).click();
    await desk.getByRole('heading', { level: 1, name: subject }).waitFor();
    await desk.getByText(question).waitFor();
    await desk.getByLabel('Respuesta', { exact: true }).fill(answer);
    await desk.getByRole('button', { name: 'Enviar respuesta' }).click();
    await desk.getByText(`Respuesta enviada por correo a ${demoEmail}.`).waitFor();
    await desk.getByRole('listitem').filter({ hasText: answer }).waitFor();
    await screenshotAt(desk, 'admin-message', 768);
    expect(await pageOverflow(desk)).toBe(0);
    await screenshotAt(desk, 'admin-message', 1280);
    expect(await seriousAxeViolations(desk)).toEqual([]);

    const reply = await latestMailTo(state.dataDir, demoEmail);
    expect(reply).toContain(`Subject: Re: ${subject}`);
    expect(reply.replace(/=\r?\n/g, '')).toContain(answer);

    // The reply, and the sign-in before it, are in the audit log.
    await desk.getByRole('link', { name: 'Registro de auditoría' }).click();
    await desk.getByRole('cell', { name: 'Respondió un mensaje' }).waitFor();
    await desk.getByRole('cell', { name: 'Inició sesión' }).waitFor();

    // The console speaks Portuguese too.
    await desk.getByRole('button', { name: /PT/ }).click();
    await desk.getByRole('heading', { level: 1, name: 'Registro de auditoria' }).waitFor();
    await desk.getByRole('link', { name: 'Mensagens' }).click();
    await desk.getByRole('heading', { level: 1, name: 'Mensagens' }).waitFor();
  }, 120_000);

  it('the other screens: users, promo codes, partners, at tablet and desktop widths', async () => {
    const { desk } = state;
    await desk.setViewportSize({ width: 768, height: 900 });
    await desk.getByRole('link', { name: 'Usuários' }).click();
    await desk.getByRole('button', { name: /ES/ }).click();
    await desk.getByRole('heading', { level: 1, name: 'Usuarios' }).waitFor();
    await desk.getByLabel('Correo electrónico o nombre').fill('demo');
    await desk.getByRole('button', { name: 'Buscar', exact: true }).click();
    await desk.getByRole('link', { name: 'Demo Usuario' }).click();
    await desk.getByRole('heading', { level: 1, name: 'Demo Usuario' }).waitFor();
    await desk.getByText('Pagó').waitFor();
    await desk.getByRole('link', { name: subject }).waitFor();
    await screenshotAt(desk, 'admin-user', 768);
    expect(await pageOverflow(desk)).toBe(0);
    expect(await seriousAxeViolations(desk)).toEqual([]);

    await desk.getByRole('link', { name: 'Códigos promocionales' }).click();
    await desk.getByRole('row').filter({ hasText: 'MESGRATIS' }).waitFor();
    await desk.getByLabel('Código', { exact: true }).fill('e2e-2026');
    await desk.getByLabel('Máximo de usos').fill('10');
    await desk.getByRole('button', { name: 'Crear código' }).click();
    await desk.getByText('Código E2E-2026 creado.').waitFor();
    const created = desk.getByRole('row').filter({ hasText: 'E2E-2026' });
    expect(await created.textContent()).toContain('0 de 10');
    await screenshotAt(desk, 'admin-promo-codes', 768);
    expect(await pageOverflow(desk)).toBe(0);
    await screenshotAt(desk, 'admin-promo-codes', 1280);
    expect(await seriousAxeViolations(desk)).toEqual([]);

    await desk.getByRole('link', { name: 'Socios y referidos' }).click();
    await desk.getByRole('heading', { level: 1, name: 'Socios y referidos' }).waitFor();
    await desk.getByText(/registros? del/).waitFor();
    await screenshotAt(desk, 'admin-partners', 768);
    expect(await pageOverflow(desk)).toBe(0);
    expect(await seriousAxeViolations(desk)).toEqual([]);

    await desk.getByRole('link', { name: 'Registro de auditoría' }).click();
    await desk.getByRole('cell', { name: 'Creó un código promocional' }).waitFor();
    await screenshotAt(desk, 'admin-audit-log', 768);
    expect(await pageOverflow(desk)).toBe(0);
  }, 90_000);

  it('an admin refunds a paying user under the 30-day guarantee from the console', async () => {
    const user = await newPage();
    const email = await registerThroughForm(user, state.dataDir, 'es');
    await user.waitForURL('**/payment');
    await user.getByRole('heading', { level: 1, name: paymentCopy.es.welcome }).waitFor();
    await user.getByRole('button', { name: paymentCopy.es.payMonthly }).click();
    await user.waitForURL('**/sim-pay/checkout/**');
    await fillCard(user, 'es', '4242 4242 4242 4242');
    await user.waitForURL('**/link-account', { timeout: 20_000 });
    expect(await authorized(user)).toBe(true);

    const { desk } = state;
    await desk.setViewportSize({ width: 768, height: 900 });
    await desk.getByRole('link', { name: 'Usuarios' }).click();
    await desk.getByRole('heading', { level: 1, name: 'Usuarios' }).waitFor();
    await desk.getByLabel('Correo electrónico o nombre').fill(email);
    await desk.getByRole('button', { name: 'Buscar', exact: true }).click();
    await desk.getByRole('link', { name: 'María Gonçalves' }).click();
    await desk.getByRole('heading', { level: 1, name: 'María Gonçalves' }).waitFor();
    await desk.getByText('Plan mensual · activa').waitFor();
    const guarantee = desk.getByRole('region', { name: 'Garantía de 30 días' });
    await guarantee.getByText(/^Elegible hasta el .*USD\s?29[.,]00/).waitFor();
    expect(await pageOverflow(desk)).toBe(0);
    expect(await seriousAxeViolations(desk)).toEqual([]);
    // Paid but not linked: there is no robot to stop, and the card says so instead of a button.
    const killSwitch = desk.getByRole('region', { name: 'Detener el robot de este usuario' });
    await killSwitch.getByText(/^Este usuario no opera/).waitFor();
    expect(await killSwitch.getByRole('button').count()).toBe(0);

    await guarantee.getByRole('button', { name: 'Reembolsar con la garantía' }).click();
    const dialog = desk.getByRole('alertdialog');
    await dialog.getByText('¿Reembolsar a María Gonçalves con la garantía de 30 días?').waitFor();
    await screenshotAt(desk, 'admin-guarantee-confirm', 768);
    await dialog.getByRole('button', { name: 'Sí, reembolsar' }).click();
    await guarantee
      .getByText('Pago reembolsado. El acceso del usuario terminó y le enviamos un correo.')
      .waitFor();
    await guarantee.getByText(/^No es elegible: el primer pago ya fue reembolsado el/).waitFor();
    await desk.getByText('Plan mensual · reembolsada').waitFor();
    await screenshotAt(desk, 'admin-guarantee-done', 768);
    expect(await pageOverflow(desk)).toBe(0);

    // Its effects: access ended, the user told by e-mail, the action in the audit log.
    expect(await authorized(user)).toBe(false);
    const notice = await latestMailTo(state.dataDir, email);
    expect(notice).toMatch(/^Subject: .*Te[ _]devolvimos[ _]el[ _]pago/m);
    await desk.getByRole('link', { name: 'Registro de auditoría' }).click();
    const entry = desk.getByRole('row').filter({ hasText: 'Reembolsó con la garantía de 30 días' });
    await entry.waitFor();
    expect(await entry.textContent()).toContain('refunded');
    // Written before the provider was called: who asked, even had the refund failed.
    await desk
      .getByRole('row')
      .filter({ hasText: 'Pidió un reembolso con la garantía de 30 días' })
      .waitFor();
  }, 120_000);

  it('every console screen in Portuguese at 768 px: no sideways scrolling of the page', async () => {
    const { desk } = state;
    await desk.setViewportSize({ width: 768, height: 900 });
    await desk.getByRole('button', { name: /PT/ }).click();
    for (const [link, heading] of [
      ['Mensagens', 'Mensagens'],
      ['Usuários', 'Usuários'],
      ['Códigos promocionais', 'Códigos promocionais'],
      ['Parceiros e indicações', 'Parceiros e indicações'],
      ['Registro de auditoria', 'Registro de auditoria'],
    ] as const) {
      await desk.getByRole('link', { name: link, exact: true }).click();
      await desk.getByRole('heading', { level: 1, name: heading }).waitFor();
      await desk.waitForLoadState('networkidle');
      expect(await pageOverflow(desk), heading).toBe(0);
      expect(await seriousAxeViolations(desk)).toEqual([]);
    }
    await screenshotAt(desk, 'admin-audit-log-pt', 768);
    await desk.getByRole('link', { name: 'Usuários', exact: true }).click();
    await desk.getByLabel('E-mail ou nome').fill('María');
    await desk.getByRole('button', { name: 'Buscar', exact: true }).click();
    await desk.getByRole('link', { name: 'María Gonçalves' }).first().click();
    await desk
      .getByRole('region', { name: 'Garantia de 30 dias' })
      .getByText(/^Não é elegível/)
      .waitFor();
    expect(await pageOverflow(desk)).toBe(0);
    await screenshotAt(desk, 'admin-user-pt', 768);
  }, 90_000);

  it("the console refuses a user's session, and its screens need the second factor", async () => {
    const user = await newPage();
    await logInDemo(user);
    const status = await user.evaluate(async () => {
      const response = await fetch('/core-api/public/api/v1/admin/messages', {
        headers: { Authorization: `Bearer ${localStorage.getItem('token') ?? ''}` },
      });
      return response.status;
    });
    expect(status).toBe(403);
    // A user's session opens nothing in the console: it asks for an admin sign-in.
    await user.goto('/admin/users');
    await user.waitForURL('**/admin/login');
    await user.getByRole('heading', { name: 'Consola de soporte' }).waitFor();
  }, 60_000);
});
