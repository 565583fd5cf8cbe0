import { describe, expect, it } from 'vitest';
import { addWorkingHours, localDay, nextDate, startOfLocalDay } from './working-hours';

const buenosAires = { timeZone: 'America/Argentina/Buenos_Aires', holidays: new Set<string>() };
const due = (iso: string, calendar = buenosAires) =>
  addWorkingHours(new Date(iso), 24, calendar).toISOString();

describe('24 working hours in the operator time zone (decision 056)', () => {
  it('is a day later on a weekday', () => {
    // Wednesday 10:00 in Buenos Aires (UTC-3).
    expect(due('2026-11-18T13:00:00Z')).toBe('2026-11-19T13:00:00.000Z');
  });

  it('skips the weekend: Friday 15:00 falls due Monday 15:00', () => {
    expect(due('2026-11-20T18:00:00Z')).toBe('2026-11-23T18:00:00.000Z');
  });

  it('starts counting on Monday for a message sent on Saturday', () => {
    expect(due('2026-11-21T13:00:00Z')).toBe('2026-11-24T03:00:00.000Z');
  });

  it('counts the weekend by local days, not UTC days', () => {
    // Friday 22:30 local is Saturday 01:30 UTC: 1.5 hours of Friday still count.
    expect(due('2026-11-21T01:30:00Z')).toBe('2026-11-24T01:30:00.000Z');
  });

  it('skips the listed holidays', () => {
    const calendar = { ...buenosAires, holidays: new Set(['2026-11-23']) };
    expect(due('2026-11-20T18:00:00Z', calendar)).toBe('2026-11-24T18:00:00.000Z');
  });

  it('keeps local time across a daylight-saving change', () => {
    // Madrid leaves summer time on Sunday 25 October 2026: Friday 12:00 (UTC+2) falls due
    // Monday 12:00 (UTC+1).
    const madrid = { timeZone: 'Europe/Madrid', holidays: new Set<string>() };
    expect(due('2026-10-23T10:00:00Z', madrid)).toBe('2026-10-26T11:00:00.000Z');
  });

  it('keeps seconds and milliseconds', () => {
    expect(due('2026-11-18T13:07:31.250Z')).toBe('2026-11-19T13:07:31.250Z');
  });

  it('refuses a calendar with no working day', () => {
    const everyDayOff = new Set<string>();
    for (let day = Date.parse('2026-01-01'); day < Date.parse('2027-01-03'); day += 86_400_000)
      everyDayOff.add(new Date(day).toISOString().slice(0, 10));
    expect(() => due('2026-01-01T12:00:00Z', { timeZone: 'UTC', holidays: everyDayOff })).toThrow(
      'no working time within a year',
    );
  });
});

describe('local days', () => {
  it('names the local date and the weekend', () => {
    expect(localDay(Date.parse('2026-11-21T02:00:00Z'), buenosAires.timeZone)).toEqual({
      date: '2026-11-20',
      weekend: false,
    });
    expect(localDay(Date.parse('2026-11-21T03:00:00Z'), buenosAires.timeZone)).toEqual({
      date: '2026-11-21',
      weekend: true,
    });
  });

  it('finds the first instant of a local date, for any offset', () => {
    expect(startOfLocalDay('2026-11-20', buenosAires.timeZone).toISOString()).toBe(
      '2026-11-20T03:00:00.000Z',
    );
    expect(startOfLocalDay('2026-01-01', 'Asia/Kathmandu').toISOString()).toBe(
      '2025-12-31T18:15:00.000Z',
    );
    expect(startOfLocalDay('2026-03-29', 'Europe/Madrid').toISOString()).toBe(
      '2026-03-28T23:00:00.000Z',
    );
  });

  it('steps to the next date across months and years', () => {
    expect(nextDate('2026-12-31')).toBe('2027-01-01');
    expect(nextDate('2028-02-28')).toBe('2028-02-29');
  });
});
