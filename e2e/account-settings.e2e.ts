import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser';
import { catalogueText } from './support/catalogue';
import { latestMailTo } from './support/mailbox';
import { registerThroughApi } from './support/registration';
import { startServer, type RunningServer } from './support/server';

/**
 * Issue 23, account settings (decisions 080 and 089): the phone, the password, the sessions,
 * the e-mail address and deleting the account, as a user does each, in Spanish and Portuguese at 390 px (a phone) and
 * 1280 px.
 */
type Language = 'es' | 'pt';
const cases: { language: Language; width: number }[] = [
  { language: 'es', width: 390 },
  { language: 'es', width: 1280 },
  { language: 'pt', width: 390 },
  { language: 'pt', width: 1280 },
];
const prefix: Record<Language, string> = { es: '', pt: '/pt' };
const api = '/core-api/public/api/v1';
const password = 'Ajustes2026';
const newPassword = 'Cambiada2027';
const iphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const text = (language: Language, key: string, values: Record<string, string | number> = {}) =>
  catalogueText(language, 'account-settings', key).replace(/\{\{(\w+)\}\}/g, (_whole, name) =>
    String(values[name as string]),
  );
const contract = (language: Language, key: string) =>
  (
    ({
      es: {
        numbersOnly: 'Solo se permiten números',
        wrongPassword: 'La contraseña actual no es correcta',
      },
      pt: {
        numbersOnly: 'Somente números são permitidos',
        wrongPassword: 'A senha atual não está correta',
      },
    }) as const
  )[language][key as 'numbersOnly' | 'wrongPassword'];

const state = {} as { server: RunningServer; browser: Browser };
const started = state as Partial<typeof state>;
let registrations = 0;

beforeAll(async () => {
  // No robot: these screens read no market, and the machine is shared.
  state.server = await startServer({ ROBOT_ENABLED: 'false' });
  state.browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await started.browser?.close();
  await started.server?.stop();
});

async function call(
  method: string,
  route: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${state.server.url}${api}${route}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** A new user through the API in `language`; resolves its e-mail and token. */
async function registerUser(language: Language): Promise<{ email: string; token: string }> {
  registrations += 1;
  const email = `ajustes-${String(registrations)}-${String(Date.now())}@example.com`;
  const token = await registerThroughApi(state.server.url, state.server.dataDir, {
    name: 'Lucía',
    last_name: 'Ajustes',
    email,
    phone: '+54 11 5555-1234',
    password,
    confirm_password: password,
    accept_terms: true,
    language,
  });
  return { email, token };
}

/** Another device signing in (a phone's User-Agent); resolves its token. */
async function signInElsewhere(email: string, withPassword = password): Promise<string> {
  const answer = await call(
    'POST',
    '/login',
    { email, password: withPassword },
    { 'user-agent': iphone },
  );
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { data: { token: string } }).data.token;
}

/** The newest e-mail to `to`, its quoted-printable text decoded. */
async function mailTo(to: string): Promise<string> {
  return (await latestMailTo(state.server.dataDir, to))
    .replace(/=\r?\n/g, '')
    .replace(/(?:=[0-9A-F]{2})+/g, (encoded) =>
      Buffer.from(encoded.replace(/=/g, ''), 'hex').toString('utf8'),
    );
}

/**
 * The newest e-mail to `to` once it contains `expected`, waiting for it: the server mails after
 * it answers, so the newest e-mail may still be an earlier one.
 */
async function mailContaining(to: string, expected: string | RegExp): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mail = await mailTo(to);
    if (typeof expected === 'string' ? mail.includes(expected) : expected.test(mail)) return mail;
    if (Date.now() > deadline) throw new Error(`no e-mail to ${to} with ${String(expected)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The `param` token of the newest link mailed to `to` (decision 089), waiting for it. */
async function mailedLink(to: string, param: 'token' | 'undo_token'): Promise<string> {
  const pattern = new RegExp(`https?://[^\\s"]*/confirm-email\\?${param}=[\\w-]+`);
  const link = pattern.exec(await mailContaining(to, pattern))?.[0];
  if (!link) throw new Error(`no ${param} link mailed to ${to}`);
  return link;
}

async function sessionAlive(token: string): Promise<boolean> {
  const answer = await fetch(`${state.server.url}${api}/get-settings`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return answer.status === 200;
}

async function settingsPage(
  language: Language,
  width: number,
  token: string,
): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await state.browser.newContext({
    baseURL: state.server.url,
    viewport: { width, height: 800 },
    storageState: {
      cookies: [],
      origins: [
        {
          origin: state.server.url,
          localStorage: [
            { name: 'token', value: token },
            { name: 'language', value: language },
          ],
        },
      ],
    },
  });
  const page = await context.newPage();
  await page.goto(`${prefix[language]}/account-settings`);
  await page.getByRole('heading', { level: 1, name: text(language, 'title') }).waitFor();
  return { page, close: () => context.close() };
}

/** The page never scrolls sideways. */
async function noSidewaysScroll(page: Page): Promise<void> {
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
}

/**
 * Registration allows ten accounts an hour per address (decision 052): one user per case goes
 * through every setting, the deletion last.
 */
describe.each(cases)('account settings in $language at $width px', ({ language, width }) => {
  const user = {} as { email: string; token: string };
  beforeAll(async () => {
    Object.assign(user, await registerUser(language));
  });

  it('changes the phone, validated as at registration', async () => {
    const { token } = user;
    const { page, close } = await settingsPage(language, width, token);
    try {
      const phone = page.getByLabel(text(language, 'phone.label'));
      await expect.poll(() => phone.inputValue()).toBe('+54 11 5555-1234');
      await noSidewaysScroll(page);
      await phone.fill('llámame');
      await page.getByRole('button', { name: text(language, 'phone.submit') }).click();
      await page.getByText(contract(language, 'numbersOnly')).waitFor();
      await phone.fill('+55 11 91234-5678');
      // The keyboard submits the form.
      await phone.press('Enter');
      await page.getByText(text(language, 'phone.saved')).waitFor();
      await page.reload();
      await expect
        .poll(() => page.getByLabel(text(language, 'phone.label')).inputValue())
        .toBe('+55 11 91234-5678');
    } finally {
      await close();
    }
  });

  it('changes the password with the current one, signs out the other devices and mails the owner', async () => {
    const { email, token } = user;
    const elsewhere = await signInElsewhere(email);
    // The phone is a device the owner never used: they are told by e-mail (decision 163).
    const told = await mailContaining(email, /dispositivo que (?:no usaste|você não usou)/);
    expect(told).toContain(`${state.server.url}${prefix[language]}/account-settings`);
    const { page, close } = await settingsPage(language, width, token);
    try {
      const current = page.getByLabel(text(language, 'password.current'), { exact: true });
      await current.fill('no-es-esta-1');
      await page.getByLabel(text(language, 'password.new'), { exact: true }).fill(newPassword);
      await page.getByLabel(text(language, 'password.confirm')).fill(newPassword);
      await page.getByRole('button', { name: text(language, 'password.submit') }).click();
      await page.getByText(contract(language, 'wrongPassword')).waitFor();
      expect(await current.getAttribute('aria-invalid')).toBe('true');
      expect(await sessionAlive(elsewhere)).toBe(true);

      await current.fill(password);
      await page.getByRole('button', { name: text(language, 'password.submit') }).click();
      await page.getByText(text(language, 'password.changed_one', { count: 1 })).waitFor();
      expect(await sessionAlive(elsewhere)).toBe(false);
      expect(await sessionAlive(token)).toBe(true);
      await noSidewaysScroll(page);

      const forgot = `${state.server.url}${prefix[language]}/forgot-password`;
      const mail = await mailContaining(email, forgot);
      expect(mail).toContain(forgot);
      expect(mail).not.toContain(newPassword);
    } finally {
      await close();
    }
  });

  it('lists the sessions with this one marked, and signs out one, then every other', async () => {
    const { email, token } = user;
    const phoneToken = await signInElsewhere(email, newPassword);
    const { page, close } = await settingsPage(language, width, token);
    try {
      const list = page.getByRole('list', { name: text(language, 'sessions.title') });
      await expect.poll(() => list.getByRole('listitem').count()).toBe(2);
      await list.getByText(text(language, 'sessions.current')).waitFor();
      const phoneDevice = text(language, 'sessions.device', { browser: 'Safari', os: 'iOS' });
      await list.getByText(phoneDevice).waitFor();
      await noSidewaysScroll(page);

      await page
        .getByRole('button', {
          name: text(language, 'sessions.signOutOne', { device: phoneDevice }),
        })
        .click();
      await page.getByText(text(language, 'sessions.signedOut_one', { count: 1 })).waitFor();
      await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
      expect(await sessionAlive(phoneToken)).toBe(false);
      await page.getByText(text(language, 'sessions.onlyThis')).waitFor();

      // Two more devices, then "sign out everywhere else", confirmed in a dialog.
      const others = [
        await signInElsewhere(email, newPassword),
        await signInElsewhere(email, newPassword),
      ];
      await page.reload();
      await expect.poll(() => list.getByRole('listitem').count()).toBe(3);
      await page.getByRole('button', { name: text(language, 'sessions.signOutOthers') }).click();
      const dialog = page.getByRole('alertdialog');
      await dialog.getByText(text(language, 'sessions.confirmText_other', { count: 2 })).waitFor();
      await dialog.getByRole('button', { name: text(language, 'sessions.confirm') }).click();
      await page.getByText(text(language, 'sessions.signedOut_other', { count: 2 })).waitFor();
      for (const other of others) expect(await sessionAlive(other)).toBe(false);
      expect(await sessionAlive(token)).toBe(true);
      await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
    } finally {
      await close();
    }
  });

  it('changes the e-mail through a link mailed to the new address; the old one can undo it', async () => {
    const { email, token } = user;
    const newEmail = `nuevo-${String(registrations)}-${String(Date.now())}@example.com`;
    const { page, close } = await settingsPage(language, width, token);
    const elsewhere = await state.browser.newContext({
      baseURL: state.server.url,
      viewport: { width, height: 800 },
    });
    try {
      const card = page.getByRole('region', { name: text(language, 'email.title') });
      await card.getByLabel(text(language, 'email.new')).fill(newEmail);
      const current = card.getByLabel(text(language, 'email.password'));
      await current.fill('no-es-esta-1');
      await card.getByRole('button', { name: text(language, 'email.submit') }).click();
      await card.getByText(contract(language, 'wrongPassword')).waitFor();
      expect(await current.getAttribute('aria-invalid')).toBe('true');

      await current.fill(newPassword);
      await current.press('Enter');
      await card
        .getByText(text(language, 'email.sent', { email: newEmail, current: email, hours: 24 }))
        .waitFor();
      await noSidewaysScroll(page);
      // The link, opened in another browser with no session (the phone's mail app). Sign-ins
      // are counted per address (30 in 15 minutes), so the addresses' sign-ins are checked by
      // the server's tests; here the screen shows the new one.
      const confirmLink = await mailedLink(newEmail, 'token');
      expect(confirmLink.startsWith(`${state.server.url}${prefix[language]}/confirm-email`)).toBe(
        true,
      );
      const other = await elsewhere.newPage();
      await other.goto(confirmLink);
      await other
        .getByRole('heading', { level: 1, name: text(language, 'confirmEmail.title') })
        .waitFor();
      await noSidewaysScroll(other);
      await other.getByRole('button', { name: text(language, 'confirmEmail.submit') }).click();
      await other.getByText(text(language, 'confirmEmail.done', { email: newEmail })).waitFor();
      expect(await sessionAlive(token)).toBe(true);
      await page.reload();
      await page.getByText(newEmail, { exact: true }).waitFor();

      // The old address was told, with the way back: it undoes the change and ends every session.
      const undoLink = await mailedLink(email, 'undo_token');
      await other.goto(undoLink);
      await other
        .getByRole('heading', { level: 1, name: text(language, 'confirmEmail.undoTitle') })
        .waitFor();
      await other.getByRole('button', { name: text(language, 'confirmEmail.undoSubmit') }).click();
      await other.getByText(text(language, 'confirmEmail.restored')).waitFor();
      expect(await sessionAlive(token)).toBe(false);
      const back = await call('POST', '/login', { email, password: newPassword });
      expect(back.status).toBe(200);
      // The deletion below goes on with a session of the restored address.
      user.token = ((await back.json()) as { data: { token: string } }).data.token;
    } finally {
      await elsewhere.close();
      await close();
    }
  });

  it('deletes the account with the password, says what happens, and lands signed out on the home page', async () => {
    const { email, token } = user;
    const elsewhere = await signInElsewhere(email, newPassword);
    const { page, close } = await settingsPage(language, width, token);
    try {
      await page.getByText(text(language, 'delete.kept', { years: 10 })).waitFor();
      await page.getByText(text(language, 'delete.robot')).waitFor();
      await page.getByText(text(language, 'delete.subscription')).waitFor();
      const submit = page.getByRole('button', { name: text(language, 'delete.submit') });
      // Without the password nothing is asked yet.
      await submit.click();
      expect(await page.getByRole('alertdialog').count()).toBe(0);
      await page.getByLabel(text(language, 'delete.password')).fill('no-es-esta-1');
      await submit.click();
      await page
        .getByRole('alertdialog')
        .getByRole('button', { name: text(language, 'delete.confirm') })
        .click();
      await page.getByText(contract(language, 'wrongPassword')).waitFor();
      expect(await sessionAlive(token)).toBe(true);

      await page.getByLabel(text(language, 'delete.password')).fill(newPassword);
      await submit.click();
      const dialog = page.getByRole('alertdialog');
      await dialog.getByText(text(language, 'delete.confirmText')).waitFor();
      // The dialog is keyboard-operable: focus starts on Cancel, the next control confirms.
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.getByText(text(language, 'delete.done')).waitFor();
      await page.waitForURL((url) => url.pathname === (language === 'pt' ? '/pt' : '/'));
      expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
      expect(await sessionAlive(token)).toBe(false);
      expect(await sessionAlive(elsewhere)).toBe(false);
      const signIn = await call('POST', '/login', { email, password: newPassword });
      expect(signIn.status).toBe(401);

      const kept = language === 'pt' ? '10 anos' : '10 años';
      expect(await mailContaining(email, kept)).toContain(kept);
    } finally {
      await close();
    }
  });
});
