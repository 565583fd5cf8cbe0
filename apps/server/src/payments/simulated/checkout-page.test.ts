import { Window } from 'happy-dom';
import { describe, expect, it } from 'vitest';
import { checkCard, cardFieldPatterns } from './card';
import { checkoutPage, checkoutScript, type CheckoutPageInput } from './checkout-page';

// Issue 39: after a format error the checkout wiped the card number and kept its message
// beside the corrected field until the next submission. Decision 156.

const now = new Date('2026-11-21T12:00:00Z');
const base: CheckoutPageInput = {
  language: 'es',
  numberLocale: 'es-AR',
  sessionId: 'cs_sim_test',
  email: 'ana@example.com',
  plan: 'monthly',
  amountCents: 2900,
  trialEnd: null,
  cancelUrl: '/payment',
};

/** The page as the browser gets it after a refused submission, with its script running. */
function refusedPage(form: { name: string; number: string; expiry: string; cvc: string }) {
  const check = checkCard(form, now);
  if (check.ok) throw new Error('the form was meant to be refused');
  const window = new Window({ settings: { enableJavaScriptEvaluation: true } });
  const { document } = window;
  document.write(checkoutPage({ ...base, values: form, problems: check.problems }));
  window.eval(checkoutScript);
  const input = (name: string) => {
    const element = document.querySelector(`#${name}`);
    if (!(element instanceof window.HTMLInputElement)) throw new Error(`no field ${name}`);
    return element;
  };
  const problem = (name: string) => {
    const element = document.getElementById(`${name}-problem`);
    return element === null || element.hasAttribute('hidden') ? null : element.textContent;
  };
  const type = (name: string, value: string) => {
    input(name).value = value;
    input(name).dispatchEvent(new window.Event('input', { bubbles: true }));
  };
  return { document, input, problem, type };
}

describe('the simulated checkout after a refused form', () => {
  it('keeps what was typed, and says each problem beside its field', () => {
    const page = refusedPage({
      name: 'Ana Souza',
      number: '4242 4242 4242 4241',
      expiry: '1/2',
      cvc: '123',
    });
    expect(page.input('number').value).toBe('4242 4242 4242 4241');
    expect(page.input('expiry').value).toBe('1/2');
    expect(page.input('cvc').value).toBe('123');
    expect(page.problem('number')).toBe('El número de tarjeta no es válido.');
    expect(page.problem('expiry')).toBe('Escribe el vencimiento como MM/AA.');
    expect(page.problem('name')).toBeNull();
    expect(page.input('number').getAttribute('aria-describedby')).toBe('number-problem');
    // The first field to correct has the focus.
    expect(page.input('number').hasAttribute('autofocus')).toBe(true);
    expect(page.input('expiry').hasAttribute('autofocus')).toBe(false);
  });

  it('clears a problem once its field is corrected, and only that one', () => {
    const page = refusedPage({
      name: 'Ana Souza',
      number: '4242 4242 4242 4241',
      expiry: '1/2',
      cvc: '123',
    });
    page.type('number', '4242 4242 4242 424');
    expect(page.problem('number')).toBe('El número de tarjeta no es válido.');
    page.type('number', '4242 4242 4242 4242');
    expect(page.problem('number')).toBeNull();
    expect(page.input('number').getAttribute('aria-invalid')).toBe('false');
    expect(page.input('number').hasAttribute('aria-describedby')).toBe(false);
    expect(page.problem('expiry')).toBe('Escribe el vencimiento como MM/AA.');
    page.type('expiry', '12/34');
    expect(page.problem('expiry')).toBeNull();
  });

  it('shows an expiry refused as past again if it is typed back unchanged', () => {
    const page = refusedPage({
      name: 'Ana Souza',
      number: '4242424242424242',
      expiry: '10/26',
      cvc: '123',
    });
    expect(page.problem('expiry')).toBe('La tarjeta está vencida.');
    page.type('expiry', '10/36');
    expect(page.problem('expiry')).toBeNull();
    page.type('expiry', '10/26');
    expect(page.problem('expiry')).toBe('La tarjeta está vencida.');
  });

  it('does not write back a number that is no test card, nor its code', () => {
    const page = refusedPage({
      name: 'Ana Souza',
      number: '5555 5555 5555 4444',
      expiry: '12/34',
      cvc: '321',
    });
    expect(page.problem('number')).toContain('solo acepta las tarjetas de prueba');
    expect(page.document.documentElement.innerHTML).not.toContain('5555');
    expect(page.input('cvc').value).toBe('');
    expect(page.input('name').value).toBe('Ana Souza');
  });

  it('its patterns say what the server accepts', () => {
    const accepts = (field: keyof typeof cardFieldPatterns, value: string) =>
      new RegExp(`^(?:${cardFieldPatterns[field]})$`, 'v').test(value);
    const form = { name: 'Ana', number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' };
    for (const [field, value] of [
      ['name', 'A '],
      ['name', ' Al '],
      ['number', '4242-4242-4242-4242'],
      ['number', '4000000000000002'],
      ['number', '4000 0000 0000 0341'],
      ['number', '4242 4242 4242 4241'],
      ['number', '5555 5555 5555 4444'],
      ['expiry', '1/2'],
      ['expiry', ' 3 / 2031 '],
      ['expiry', '13/30'],
      ['cvc', '12'],
      ['cvc', ' 1234 '],
    ] as const) {
      const check = checkCard({ ...form, [field]: value }, now);
      expect([field, value, accepts(field, value)]).toEqual([field, value, check.ok]);
    }
  });
});
