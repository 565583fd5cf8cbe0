import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage, loadNamespaces } from '../lib/i18n';
import { installMemoryStorage } from '../test/memory-storage';
import { renderRoute } from '../test/render-route';
import { heldSignInToken } from '../features/auth/sign-in-link';

/** The login screen, through the app's own routes, opened at `path`. */
async function renderLogin(path: string): Promise<string> {
  return (await renderRoute(path)).html;
}

describe('the login screen opened from a sign-in alert e-mail (decision 130)', () => {
  let restore: () => void;
  beforeAll(async () => {
    await loadNamespaces(['auth']);
  });
  beforeEach(() => {
    restore = installMemoryStorage();
  });
  afterEach(async () => {
    restore();
    await changeLanguage('es');
  });

  it('keeps the link for the sign-in and says so, in Spanish and Portuguese', async () => {
    await changeLanguage('es');
    const html = await renderLogin('/login?sign_in_token=abc-123');
    expect(html).toContain('Entras con el enlace del correo de aviso');
    expect(heldSignInToken()).toBe('abc-123');

    await changeLanguage('pt');
    expect(await renderLogin('/login?sign_in_token=def-456')).toContain(
      'Você está entrando com o link do e-mail de aviso',
    );
    expect(heldSignInToken()).toBe('def-456');
  });

  it('says nothing of a link when opened without one', async () => {
    await changeLanguage('es');
    const html = await renderLogin('/login');
    expect(html).toContain('Iniciar sesión');
    expect(html).not.toContain('enlace del correo de aviso');
    expect(heldSignInToken()).toBeUndefined();
  });
});
