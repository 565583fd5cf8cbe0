import { describe, expect, it } from 'vitest';
import { localTime } from './notification.service';

describe('localTime (the daily summary reads the user’s local evening)', () => {
  it('gives the local date, hour and time into the day, across zones and a date line', () => {
    const at = new Date('2026-11-26T23:30:15.250Z');
    expect(localTime(at, 'America/Argentina/Buenos_Aires')).toEqual({
      date: '2026-11-26',
      hour: 20,
      msIntoDay: ((20 * 60 + 30) * 60 + 15) * 1000 + 250,
    });
    expect(localTime(at, 'America/Sao_Paulo').hour).toBe(20);
    expect(localTime(at, 'America/Mexico_City')).toMatchObject({ date: '2026-11-26', hour: 17 });
    expect(localTime(at, 'Asia/Tokyo')).toMatchObject({ date: '2026-11-27', hour: 8 });
    expect(localTime(at, 'UTC')).toMatchObject({ date: '2026-11-26', hour: 23 });
  });

  it('follows a daylight-saving change (Santiago moves to UTC-3 in September)', () => {
    expect(localTime(new Date('2026-08-01T23:00:00Z'), 'America/Santiago').hour).toBe(19);
    expect(localTime(new Date('2026-11-01T23:00:00Z'), 'America/Santiago').hour).toBe(20);
  });
});
