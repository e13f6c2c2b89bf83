import { describe, expect, it } from 'vitest';
import { formatDateTime } from './format';

const now = new Date('2026-11-29T12:00:00Z');

describe('formatDateTime', () => {
  it('says how long ago or ahead a time is, in the largest unit that fits', () => {
    const relative = (iso: string) => formatDateTime(iso, { now, locale: 'en' })!.relative;
    expect(relative('2026-11-29T12:00:00Z')).toBe('now');
    expect(relative('2026-11-29T11:59:30Z')).toBe('30 seconds ago');
    expect(relative('2026-11-29T11:55:00Z')).toBe('5 minutes ago');
    expect(relative('2026-11-29T09:00:00Z')).toBe('3 hours ago');
    expect(relative('2026-11-28T12:00:00Z')).toBe('yesterday');
    expect(relative('2026-11-29T14:00:00Z')).toBe('in 2 hours');
    expect(relative('2026-10-01T12:00:00Z')).toBe('2 months ago');
  });

  it('gives the absolute time in the viewer’s (or the given) zone, naming the zone and its offset', () => {
    expect(formatDateTime('2026-11-29T11:55:07Z', { now, locale: 'en-GB', timeZone: 'Europe/Berlin' })!.absolute).toBe('29 Nov 2026, 12:55:07 GMT+01:00 (Europe/Berlin)');
    expect(formatDateTime('2026-07-01T00:00:00Z', { now, locale: 'en-GB', timeZone: 'America/New_York' })!.absolute).toBe('30 Jun 2026, 20:00:00 GMT-04:00 (America/New_York)');
    const viewer = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(formatDateTime('2026-11-29T11:55:07Z', { now })!.absolute.endsWith(`(${viewer})`)).toBe(true);
  });

  it('is null without a time, and keeps text that is not a time', () => {
    expect(formatDateTime(null)).toBeNull();
    expect(formatDateTime('')).toBeNull();
    expect(formatDateTime('soon')).toEqual({ iso: 'soon', relative: 'soon', absolute: 'soon' });
  });
});
