// @vitest-environment happy-dom
import { numberLocaleOf } from '@tradebot/contract';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { changeLanguage, loadNamespaces } from '../../lib/i18n';
import EquityChart from './equity-chart';

const points = [
  { time: 1_793_491_200, value: 1000 },
  { time: 1_793_577_600, value: 1010 },
];

/** What the keyboard reaches in `root`. */
const focusable = (root: HTMLElement) => [
  ...root.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, [tabindex]'),
];

/**
 * happy-dom answers a colour as it was written; the chart library reads colours back from
 * getComputedStyle as rgb()/rgba(), as browsers give them. Hex colours are converted here.
 */
function computedColoursAsBrowsersGiveThem() {
  const computed = window.getComputedStyle.bind(window);
  vi.spyOn(window, 'getComputedStyle').mockImplementation((element, pseudo) => {
    const style = computed(element, pseudo);
    const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})?$/i.exec(style.color);
    if (!hex) return style;
    const [r, g, b] = [hex[1], hex[2], hex[3]].map((part) => parseInt(part ?? '0', 16));
    const alpha = hex[4] ? parseInt(hex[4], 16) / 255 : 1;
    const color = `rgba(${String(r)}, ${String(g)}, ${String(b)}, ${String(alpha)})`;
    return new Proxy(style, {
      get: (target, key) =>
        key === 'color' ? color : (Reflect.get(target, key, target) as unknown),
    });
  });
}

describe('the equity chart (issue 39)', () => {
  beforeAll(async () => {
    await loadNamespaces(['common']);
    computedColoursAsBrowsersGiveThem();
    for (const [name, value] of Object.entries({
      '--color-primary': '#1a73e8',
      '--color-muted': '#5f6368',
      '--color-neutral-soft': '#e8eaed',
    }))
      document.documentElement.style.setProperty(name, value);
  });
  afterEach(async () => {
    cleanup();
    await changeLanguage('es');
  });

  it.each(['es', 'pt'] as const)(
    'reaches by keyboard only its credit to the library, a link named in words (%s)',
    async (language) => {
      await changeLanguage(language);
      const { container } = render(
        <EquityChart points={points} locale={numberLocaleOf(language, 'AR')} />,
      );
      const link = screen.getByRole('link', { name: 'Gráfico: TradingView Lightweight Charts' });
      expect(link.getAttribute('href')).toBe('https://www.tradingview.com/');
      expect(focusable(container)).toEqual([link]);
    },
  );
});
