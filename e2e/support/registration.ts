import type { Page } from 'playwright-core';
import { latestMailTo } from './mailbox';

/** An e-mail's text with quoted-printable's soft breaks and escaped `=` undone. */
const quotedPrintable = (eml: string) => eml.replace(/=\r?\n/g, '').replaceAll('=3D', '=');

/** The confirmation link (decision 085) in the newest e-mail to `email`. */
export async function confirmationLink(dataDir: string, email: string): Promise<string> {
  const mail = quotedPrintable(await latestMailTo(dataDir, email));
  const link = /https?:\/\/\S+?confirmation_token=[\w-]+/.exec(mail)?.[0];
  if (!link) throw new Error(`no confirmation link in the newest e-mail to ${email}`);
  return link;
}

/**
 * Opens the confirmation link mailed to `email` in `page` (the browser that registered
 * confirms with one click) and waits until the app has left /register.
 */
export async function followConfirmationLink(page: Page, dataDir: string, email: string) {
  const link = new URL(await confirmationLink(dataDir, email));
  await page.goto(`${link.pathname}${link.search}`);
  await page.waitForURL((url) => !url.pathname.endsWith('/register'));
}

/**
 * A new account through the API, as a browser would make it: register, then confirm with the
 * nonce from the link mailed. Resolves with the session token.
 */
export async function registerThroughApi(
  url: string,
  dataDir: string,
  body: Record<string, unknown> & { email: string },
): Promise<string> {
  const api = `${url}/core-api/public/api/v1`;
  const post = (path: string, payload: unknown) =>
    fetch(`${api}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
  // The privacy box a browser's user ticks (decision 087), unless the test says otherwise.
  const registered = await post('/register', { accept_privacy: true, ...body });
  if (registered.status !== 202) {
    throw new Error(`register answered ${String(registered.status)}: ${await registered.text()}`);
  }
  const { nonce } = ((await registered.json()) as { data: { nonce: string } }).data;
  const token = new URL(await confirmationLink(dataDir, body.email)).searchParams.get(
    'confirmation_token',
  );
  const confirmed = await post('/register/confirm', { token, nonce });
  if (confirmed.status !== 201) {
    throw new Error(`confirm answered ${String(confirmed.status)}: ${await confirmed.text()}`);
  }
  return ((await confirmed.json()) as { data: { token: string } }).data.token;
}
