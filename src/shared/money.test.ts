import { describe, expect, it } from 'vitest';
import { arsToCentavos, formatArs, formatCentavos } from './money.js';

describe('money (D5)', () => {
  it.each([
    [1, 100],
    [0.01, 1],
    [0.29, 29],
    [1500.5, 150050],
    [99999.99, 9999999],
    [1e9, 1e11],
    [0, 0],
    [-5, -500],
  ])('%s ARS → %s centavos', (ars, c) => expect(arsToCentavos(ars)).toBe(c));

  it.each([1.001, 0.005, 10.999, NaN, Infinity, -Infinity, 1e300])('refuses %s', (ars) => expect(arsToCentavos(ars)).toBeNull());

  // A double cannot tell 90000000000000.01 from …0.02: such an amount would be taken one centavo off.
  it.each([Number('90000000000000.01'), 1e13 + 0.01, -1e14])('refuses %s, too large to hold every centavo', (ars) =>
    expect(arsToCentavos(ars)).toBeNull(),
  );
  // From 2^43 a double cannot tell …130.339 from …130.34: three decimals would pass for two.
  it.each([Number('9047430885130.339'), Number('8796093022208.001')])('refuses %s, where three decimals cannot be told from two', (ars) =>
    expect(arsToCentavos(ars)).toBeNull(),
  );
  it('takes the largest amount exactly', () => expect(arsToCentavos(7999999999999.99)).toBe(799999999999999));
  it('refuses three decimals just below the largest amount', () => expect(arsToCentavos(Number('7999999999999.991'))).toBeNull());

  it('formats balances and Argentine amounts', () => {
    expect(formatCentavos(150000)).toBe('1500.00');
    expect(formatCentavos(5)).toBe('0.05');
    expect(formatCentavos(0)).toBe('0.00');
    expect(formatArs(15000000)).toBe('$ 150.000,00');
    expect(formatArs(123456789)).toBe('$ 1.234.567,89');
    expect(formatArs(7)).toBe('$ 0,07');
  });
});
