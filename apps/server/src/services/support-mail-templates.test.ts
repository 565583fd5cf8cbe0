import { describe, expect, it } from 'vitest';
import { formatDueTime } from './support-mail-templates';

describe('the due time a support mail gives (issue 39)', () => {
  const midnight = new Date('2026-11-20T03:00:00.000Z');

  it('is on the 24-hour clock in Spanish and Portuguese, never "12:00 a.m."', () => {
    const spanish = formatDueTime('es', midnight, 'America/Argentina/Buenos_Aires');
    expect(spanish).toContain('00:00');
    expect(spanish).not.toMatch(/a\.\s?m\.|p\.\s?m\./);
    expect(spanish).toMatch(/^viernes, 20 de noviembre de 2026/);
    const portuguese = formatDueTime(
      'pt',
      new Date('2026-11-20T18:30:00.000Z'),
      'America/Sao_Paulo',
    );
    expect(portuguese).toContain('15:30');
    expect(portuguese).toMatch(/^sexta-feira, 20 de novembro de 2026/);
  });
});
