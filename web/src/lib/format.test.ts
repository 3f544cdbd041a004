import { describe, expect, it } from 'vitest';
import { formatAccount, formatArs, formatArsPlain, formatCountdown, formatDateTime, formatTime, parseArs } from './format.js';

describe('formatArs: amounts the Argentine way', () => {
  it.each([
    [150000, '$ 150.000,00'],
    [0, '$ 0,00'],
    [0.5, '$ 0,50'],
    [1500.5, '$ 1.500,50'],
    [999.99, '$ 999,99'],
    [1000, '$ 1.000,00'],
    [1234567.89, '$ 1.234.567,89'],
    [-60000, '-$ 60.000,00'],
    [0.29, '$ 0,29'],
    [100000000000, '$ 100.000.000.000,00'],
  ])('%s → %s', (n, text) => expect(formatArs(n)).toBe(text));

  it('takes the API decimal strings ("1500.00") and refuses garbage', () => {
    expect(formatArs('150000.00')).toBe('$ 150.000,00');
    expect(formatArs('0.10')).toBe('$ 0,10');
    expect(formatArs('abc')).toBe('—');
    expect(formatArs(Number.NaN)).toBe('—');
  });

  it('has a plain form for editable fields', () => {
    expect(formatArsPlain(150000)).toBe('150.000,00');
    expect(formatArsPlain(0)).toBe('0,00');
  });
});

describe('parseArs: what an owner types', () => {
  it.each([
    ['150000', 150000],
    ['150.000', 150000],
    ['150.000,50', 150000.5],
    ['150000,5', 150000.5],
    ['1.234.567,89', 1234567.89],
    ['150000.50', 150000.5],
    ['$ 1.500', 1500],
    [' 0 ', 0],
    ['0,00', 0],
    ['1,', 1],
  ])('%j → %s', (text, n) => expect(parseArs(text)).toBe(n));

  it.each(['', 'abc', '-5', '1,234', '1.2.3', '15.00.000', '1,2,3', '1,999', '12.3456', '1e5', '100000000001'])(
    'refuses %j',
    (text) => expect(parseArs(text)).toBeNull(),
  );

  it('reads back what formatArsPlain writes', () => {
    for (const n of [0, 0.01, 1, 999.99, 1000, 50000, 123456.78, 5000000]) expect(parseArs(formatArsPlain(n))).toBe(n);
  });
});

describe('Buenos Aires dates, 24-hour', () => {
  it('shows an instant in Buenos Aires wall time whatever the machine zone', () => {
    // 17:05:09 UTC is 14:05:09 in Buenos Aires (UTC-3, no DST).
    expect(formatDateTime('2026-11-22T17:05:09.000Z')).toBe('22 nov 2026, 14:05');
    expect(formatDateTime('2026-11-22T17:05:09.000Z', 'es', { seconds: true })).toBe('22 nov 2026, 14:05:09');
    expect(formatDateTime('2026-11-22T17:05:09.000Z', 'en')).toBe('22 Nov 2026, 14:05');
    expect(formatTime('2026-11-22T17:05:09.000Z')).toBe('14:05:09');
  });

  it('crosses midnight and the new year in Buenos Aires, not UTC', () => {
    expect(formatDateTime('2027-01-01T02:30:00Z')).toBe('31 dic 2026, 23:30');
    expect(formatDateTime('2026-03-01T03:00:00Z')).toBe('1 mar 2026, 00:00');
    expect(formatDateTime('2026-07-09T15:00:00Z', 'en')).toBe('9 Jul 2026, 12:00');
  });

  it('never uses a 12-hour clock', () => {
    expect(formatDateTime('2026-05-01T22:45:00Z')).toBe('1 may 2026, 19:45');
    expect(formatTime('2026-05-01T03:00:00Z', { seconds: false })).toBe('00:00');
  });

  it('shows a dash for missing or invalid dates', () => {
    expect(formatDateTime(null)).toBe('—');
    expect(formatDateTime('not a date')).toBe('—');
  });

  it('counts down in minutes and seconds', () => {
    expect(formatCountdown(299.2)).toBe('5:00');
    expect(formatCountdown(59)).toBe('0:59');
    expect(formatCountdown(3723)).toBe('1:02:03');
    expect(formatCountdown(-4)).toBe('0:00');
  });

  it('prints 22-digit accounts in their two blocks', () => {
    expect(formatAccount('2850590940090418135201')).toBe('28505909 40090418135201');
    expect(formatAccount('mate.rio.sol')).toBe('mate.rio.sol');
  });
});

describe('dates as es-AR writes them, whatever the browser', () => {
  it('formats the Buenos Aires day and parses it back to the end of that day', async () => {
    const { formatDateAr, parseDateAr } = await import('./format');
    expect(formatDateAr('2027-01-01T02:59:59Z')).toBe('31/12/2026');
    expect(parseDateAr('31/12/2026')).toBe('2026-12-31T23:59:59-03:00');
    expect(parseDateAr('1-2-27')).toBe('2027-02-01T23:59:59-03:00');
    expect(formatDateAr(parseDateAr('5/3/2027'))).toBe('05/03/2027');
    for (const bad of ['31/02/2026', '12/31/2026', '2026-12-31', 'mañana', '']) expect(parseDateAr(bad)).toBeNull();
  });
});
