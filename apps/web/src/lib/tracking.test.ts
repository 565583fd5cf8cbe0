import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readTrackingParameters, storeTrackingParameters, storedTracking } from './tracking';
import { installMemoryStorage } from '../test/memory-storage';

describe('readTrackingParameters (spec §4 Tracking parameters)', () => {
  it.each([
    ['?p=77', { sourceP: '77' }],
    ['?PARTNER_ID=77', { sourceP: '77' }],
    ['?s=fb', { sourceS: 'fb' }],
    ['?client_source=fb', { sourceS: 'fb' }],
    ['?promocode=MESGRATIS', { sourcePromo: 'MESGRATIS' }],
    ['?PromoCode=MESGRATIS', { sourcePromo: 'MESGRATIS' }],
  ])('%s is stored under its key', (search, expected) => {
    expect(readTrackingParameters(search)).toEqual(expected);
  });

  it.each(['?partner_id=77', '?P=77', '?Partner_Id=77', '?S=fb', '?CLIENT_SOURCE=fb'])(
    'only the exact spellings count: %s is neither a source nor a referral',
    (search) => {
      expect(readTrackingParameters(search)).toEqual({});
    },
  );

  it('joins every other parameter as name=value| with a trailing bar, in order', () => {
    expect(readTrackingParameters('?utm_source=google&utm_medium=cpc&gclid=abc')).toEqual({
      sourceReferral: 'utm_source=google|utm_medium=cpc|gclid=abc|',
    });
  });

  it('never keeps a parameter that carries a credential (the registration link, decision 085)', () => {
    expect(
      readTrackingParameters('?confirmation_token=abc123&utm_source=mail&session=x.y&api_key=k'),
    ).toEqual({ sourceReferral: 'utm_source=mail|' });
    expect(readTrackingParameters('?confirmation_token=abc123')).toEqual({});
  });

  it('keeps the referral apart from the reserved parameters', () => {
    expect(
      readTrackingParameters('?p=1&utm_source=x&PARTNER_ID=2&s=3&promocode=Z&ref=friend'),
    ).toEqual({
      sourceP: '1',
      sourceS: '3',
      sourcePromo: 'Z',
      sourceReferral: 'utm_source=x|ref=friend|',
    });
  });

  it('decodes values and ignores empty ones', () => {
    expect(readTrackingParameters('?p=&campaign=verano%202025&x=')).toEqual({
      sourceReferral: 'campaign=verano 2025|',
    });
  });

  it('finds nothing in an empty query', () => {
    expect(readTrackingParameters('')).toEqual({});
  });
});

describe('storeTrackingParameters', () => {
  let restore: () => void;
  beforeEach(() => {
    restore = installMemoryStorage();
  });
  afterEach(() => {
    restore();
  });

  it('writes the values under the spec keys, and the registration reads them back', () => {
    storeTrackingParameters('?p=77&s=fb&promocode=MESGRATIS&utm_source=google');
    expect(localStorage.getItem('sourceP')).toBe('77');
    expect(localStorage.getItem('sourceS')).toBe('fb');
    expect(localStorage.getItem('sourcePromo')).toBe('MESGRATIS');
    expect(localStorage.getItem('sourceReferral')).toBe('utm_source=google|');
    expect(storedTracking()).toEqual({
      partner_id: '77',
      client_source: 'fb',
      referral: 'utm_source=google|',
      promocode: 'MESGRATIS',
    });
  });

  it('keeps what an earlier visit stored when the URL brings nothing new', () => {
    storeTrackingParameters('?p=77');
    storeTrackingParameters('');
    storeTrackingParameters('?s=ig');
    expect(localStorage.getItem('sourceP')).toBe('77');
    expect(localStorage.getItem('sourceS')).toBe('ig');
  });
});
