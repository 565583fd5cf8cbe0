import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, loadNamespaces } from '../lib/i18n';
import { renderRoute } from '../test/render-route';

// Issue 39: the public pages gave visitors soporte@tradebot.local, the demo server's default
// inbox, which nobody can write to. A build given no address (as these tests are) makes none up.

beforeAll(async () => {
  await loadNamespaces(['common', 'faq']);
});

afterEach(async () => {
  await changeLanguage('es');
});

describe('the support contact on public pages, with no address configured', () => {
  it.each([
    ['es', '/asked-questions', '¿Tienes una duda? Escríbenos desde <a href="/contact"'],
    ['pt', '/asked-questions', 'Tem uma dúvida? Escreva para nós em <a href="/contact"'],
    ['es', '/', '¿Tienes una duda? Escríbenos desde <a href="/contact"'],
  ] as const)(
    '%s %s points to the contact form, and shows no .local address',
    async (language, path, line) => {
      await changeLanguage(language);
      const { html } = await renderRoute(path);
      expect(html).toContain(line);
      expect(html).not.toMatch(/@[\w.-]+\.local\b/);
    },
  );
});
