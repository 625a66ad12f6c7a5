import { describe, expect, it } from 'vitest';
import { dayAndWeekStart } from './dashboard-counts.ts';

describe('the dashboard’s day and week', () => {
  it('starts the day at midnight UTC and the week on Monday', () => {
    expect(dayAndWeekStart(new Date('2026-11-28T23:59:00Z'))).toEqual({ day: new Date('2026-11-28T00:00:00Z'), week: new Date('2026-11-23T00:00:00Z') });
    expect(dayAndWeekStart(new Date('2026-11-23T00:00:01Z')).week).toEqual(new Date('2026-11-23T00:00:00Z'));
    expect(dayAndWeekStart(new Date('2026-11-22T12:00:00Z')).week).toEqual(new Date('2026-11-16T00:00:00Z'));
  });
});
