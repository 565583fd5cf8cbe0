import type { Language, TrackRecordSummary } from '@tradebot/contract';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, loadNamespaces } from '../../../lib/i18n';
import { BreakEvenStat } from './break-even';

/** Issue 39 point 8: the figure said "Sin datos" while the text under it gave the geometry's. */
const summary = (patch: Partial<TrackRecordSummary>): TrackRecordSummary => ({
  startedAt: '2026-11-25T15:00:00.000Z',
  startingBalance: 10_000,
  balance: 10_004.02,
  profit: 4.02,
  operations: 12,
  open: 9,
  closed: 3,
  wins: 3,
  losses: 0,
  winRate: 1,
  averageWin: 1.34,
  averageLoss: null,
  breakEvenWinRate: null,
  geometryBreakEvenRate: 0.93,
  model: {
    forecasts: 0,
    accuracy: null,
    brierScore: null,
    coinFlipAccuracy: 0.5,
    coinFlipBrierScore: 0.25,
    baseRate: null,
    baseRateAccuracy: null,
    baseRateBrierScore: null,
    meanProbability: null,
    calibration: [],
  },
  ...patch,
});

async function text(language: Language, record: TrackRecordSummary): Promise<string> {
  await changeLanguage(language);
  return renderToStaticMarkup(<BreakEvenStat summary={record} />)
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

describe('the break-even figure of the track record', () => {
  beforeAll(async () => {
    await loadNamespaces(['track-record']);
  });
  afterAll(async () => {
    await changeLanguage('es');
  });

  it('gives the geometry’s break-even, saying so, before a win and a loss measure it', async () => {
    const spanish = await text('es', summary({}));
    expect(spanish).toContain('93');
    expect(spanish).not.toContain('Sin datos');
    expect(spanish).toContain('geometría');
    const portuguese = await text('pt', summary({}));
    expect(portuguese).toContain('93');
    expect(portuguese).toContain('geometria');
  });

  it('gives the measured one once there is one, and no data only when neither exists', async () => {
    const measured = await text('es', summary({ breakEvenWinRate: 0.81, averageLoss: 5.7 }));
    expect(measured).toContain('81');
    expect(measured).not.toContain('geometría');
    expect(await text('es', summary({ geometryBreakEvenRate: null }))).toContain('Sin datos');
  });
});
