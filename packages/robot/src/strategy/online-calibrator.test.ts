import { describe, expect, it } from 'vitest';
import { OnlineCalibrator } from './online-calibrator';

describe('OnlineCalibrator', () => {
  it('returns the raw probability before it has seen outcomes', () => {
    expect(new OnlineCalibrator().calibrate(0.93)).toBeCloseTo(0.93);
  });

  it('moves an overconfident score to the measured hit rate of its bin', () => {
    const calibrator = new OnlineCalibrator(100, 50);
    for (let i = 0; i < 1000; i++) calibrator.learn(0.955, i % 5 === 0 ? 0 : 1); // 80% hits
    expect(calibrator.calibrate(0.955)).toBeCloseTo((800 + 50 * 0.955) / 1050, 6);
    expect(calibrator.calibrate(0.5)).toBeCloseTo(0.5); // other bins untouched
  });
});
