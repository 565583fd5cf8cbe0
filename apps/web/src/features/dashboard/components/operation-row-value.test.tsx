// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, loadNamespaces } from '../../../lib/i18n';
import { useGeoStore } from '../../../stores/geo';
import { tradeRow } from '../../../test/trade-row';
import { OperationRow } from './operation-row';

// Issue 39: "0,1 lotes" told a beginner nothing about the money behind it. Each operation also
// says what its lots are worth in the account's currency (decision 156), as the reader's
// country writes money.

beforeAll(async () => {
  await loadNamespaces(['dashboard']);
});

afterEach(async () => {
  cleanup();
  useGeoStore.setState({ countryCode: '' });
  await changeLanguage('es');
});

const shown = (language: 'es' | 'pt', value: number | null) => {
  render(<OperationRow row={tradeRow({ value })} kind="open" onSelect={() => undefined} />);
  return screen.getByText(/lotes/).textContent.replace(/\s/g, ' ');
};

describe('an operation row says what its lots are worth', () => {
  it.each([
    ['es', 'AR', '0,1 lotes (valen US$ 10.841,20)'],
    ['pt', 'BR', '0,1 lotes (valem US$ 10.841,20)'],
  ] as const)('in the account currency, in %s-%s', async (language, country, text) => {
    await changeLanguage(language);
    useGeoStore.setState({ countryCode: country });
    expect(shown(language, 10_841.2)).toBe(text);
  });

  it('keeps the lots alone where the value would need an exchange rate', async () => {
    useGeoStore.setState({ countryCode: 'AR' });
    expect(shown('es', null)).toBe('0,1 lotes');
  });
});
