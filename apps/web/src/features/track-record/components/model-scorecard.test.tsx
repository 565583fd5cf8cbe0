import type { Language, TrackRecordModel } from '@tradebot/contract';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, loadNamespaces } from '../../../lib/i18n';
import { brierSkill, ModelScorecard } from './model-scorecard';

/**
 * Issue 39 point 8: the model's Brier skill against the base rate is said by its sign (never a
 * negative "better"), and a rate not measured yet reads as words of the sentence, not as the
 * table's capitalised "Sin datos".
 */
const measured = (patch: Partial<TrackRecordModel> = {}): TrackRecordModel => ({
  forecasts: 40,
  accuracy: 0.8,
  brierScore: 0.1,
  coinFlipAccuracy: 0.5,
  coinFlipBrierScore: 0.25,
  baseRate: 0.85,
  baseRateAccuracy: 0.85,
  baseRateBrierScore: 0.2,
  meanProbability: 0.8,
  calibration: [],
  ...patch,
});

const unmeasured: TrackRecordModel = {
  ...measured(),
  forecasts: 0,
  accuracy: null,
  brierScore: null,
  baseRate: null,
  baseRateAccuracy: null,
  baseRateBrierScore: null,
  meanProbability: null,
};

async function text(language: Language, model: TrackRecordModel): Promise<string> {
  await changeLanguage(language);
  return renderToStaticMarkup(<ModelScorecard model={model} />)
    .replace(/<[^>]+>/g, ' ')
    .replace(/\u00a0|\u202f/g, ' ');
}

beforeAll(async () => {
  await loadNamespaces(['track-record']);
});

describe('the Brier skill sentence', () => {
  it('takes its word from the sign, and its size without one', () => {
    expect(brierSkill({ brierScore: 0.1, baseRateBrierScore: 0.2 })).toEqual({
      context: 'better',
      size: 0.5,
    });
    const worse = brierSkill({ brierScore: 0.219, baseRateBrierScore: 0.2 });
    expect(worse.context).toBe('worse');
    expect(worse.size).toBeCloseTo(0.095);
    expect(brierSkill({ brierScore: 0.20001, baseRateBrierScore: 0.2 }).context).toBe('equal');
    expect(brierSkill({ brierScore: null, baseRateBrierScore: 0.2 }).context).toBe('unmeasured');
    expect(brierSkill({ brierScore: 0.1, baseRateBrierScore: 0 }).context).toBe('unmeasured');
  });

  it.each([
    ['es', /es un 9[,.]5 ?% peor/, 'mejor', /es un 50 ?% mejor/],
    ['pt', /é 9[,.]5 ?% pior/, 'melhor', /é 50 ?% melhor/],
  ] as const)('in %s: a worse model is "worse", a better one "better"', async (...row) => {
    const [language, worse, betterWord, better] = row;
    const worseText = await text(language, measured({ brierScore: 0.219 }));
    expect(worseText).toMatch(worse);
    expect(worseText).not.toMatch(new RegExp(`9[,.]5 ?% ${betterWord}`));
    expect(worseText).not.toMatch(/valor negativo/);
    expect(await text(language, measured())).toMatch(better);
  });

  it.each([
    ['es', 'Sin datos', 'todavía no hay datos'],
    ['pt', 'Sem dados', 'ainda não há dados'],
  ] as const)(
    'in %s: nothing measured is said in lower case mid-sentence',
    async (language, cell, words) => {
      const html = await text(language, unmeasured);
      expect(html).not.toMatch(new RegExp(`, ${cell}\\)`));
      expect(html).toContain(`(${words}`);
    },
  );
});
