import { describe, expect, it } from 'vitest';
import { appStarted, usePage } from './support/page';

describe('tracking parameters (spec §4)', () => {
  const state = usePage();

  it('lands in localStorage with the exact values', async () => {
    const { page } = state;
    await page.goto(
      '/?p=77&s=facebook&promocode=MESGRATIS&utm_source=google&utm_campaign=verano%202025&partner_id=ignored',
    );
    // The page is prerendered: the app (which stores them) starts after its first paint.
    await page.waitForFunction(() => localStorage.getItem('sourceReferral') !== null);
    const stored = await page.evaluate(() => ({
      sourceP: localStorage.getItem('sourceP'),
      sourceS: localStorage.getItem('sourceS'),
      sourcePromo: localStorage.getItem('sourcePromo'),
      sourceReferral: localStorage.getItem('sourceReferral'),
    }));
    expect(stored).toEqual({
      sourceP: '77',
      sourceS: 'facebook',
      sourcePromo: 'MESGRATIS',
      sourceReferral: 'utm_source=google|utm_campaign=verano 2025|',
    });
  });

  it('accepts PARTNER_ID and client_source, and prefills the promo code at registration', async () => {
    const { page } = state;
    await page.goto('/register?PARTNER_ID=p-9&client_source=ads&promocode=MESGRATIS');
    const promocode = page.getByLabel('Código promocional (opcional)');
    await appStarted(page);
    await expect.poll(() => promocode.inputValue()).toBe('MESGRATIS');
    await page.getByText('Código válido: tienes un mes gratis').waitFor();
    expect(
      await page.evaluate(() => [localStorage.getItem('sourceP'), localStorage.getItem('sourceS')]),
    ).toEqual(['p-9', 'ads']);
  });
});
