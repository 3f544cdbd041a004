import { describe, expect, it } from 'vitest';
import {
  canonicalDestination,
  hasValidAccountCheckDigits,
  isAlias,
  isCbu,
  isCvu,
  isValidCuit,
  isValidDestination,
  kindOf,
  withCheckDigits,
} from './ar-identifiers.js';
import { randomCvu } from '../modules/rail/sandbox/sandbox-names.js';

describe('CBU / CVU check digits (D7)', () => {
  // Published valid CBUs (Banco Macro and BBVA examples).
  it.each(['2850590940090418135201', '0170099220000067797370'])('accepts valid CBU %s', (cbu) => {
    expect(hasValidAccountCheckDigits(cbu)).toBe(true);
    expect(isCbu(cbu)).toBe(true);
    expect(isCvu(cbu)).toBe(false);
    expect(kindOf(cbu)).toBe('CBU');
  });

  it.each([
    ['2850590940090418135202', 'second check digit wrong'],
    ['2850590840090418135201', 'first check digit wrong'],
    ['285059094009041813520', '21 digits'],
    ['28505909400904181352011', '23 digits'],
    ['28505909400904181352a1', 'a letter'],
    ['', 'empty'],
  ])('refuses %s (%s)', (s) => {
    expect(hasValidAccountCheckDigits(s)).toBe(false);
    expect(isValidDestination('CBU', s)).toBe(false);
  });

  it('a CVU starts with 000 and has valid check digits; a CBU never starts with 000', () => {
    const cvu = withCheckDigits('0000003', '1234567890123');
    expect(cvu).toHaveLength(22);
    expect(isCvu(cvu)).toBe(true);
    expect(isCbu(cvu)).toBe(false);
    expect(kindOf(cvu)).toBe('CVU');
    expect(isValidDestination('CBU', cvu)).toBe(false);
    expect(isValidDestination('CVU', '2850590940090418135201')).toBe(false);
  });

  it('every CVU the sandbox issues passes the check', () => {
    for (let i = 0; i < 200; i++) expect(isCvu(randomCvu())).toBe(true);
  });
});

describe('aliases (D7)', () => {
  it.each(['mate.rio.sol', 'ABC-123', 'a.b.c.d.e.f', 'x'.repeat(20)])('accepts %s', (a) => expect(isAlias(a)).toBe(true));
  it.each(['short', 'x'.repeat(21), 'has space', 'ñandu.rio', 'a_b_c_d', ''])('refuses %s', (a) => expect(isAlias(a)).toBe(false));
  it('compares case-insensitively', () => expect(canonicalDestination('Mate.Rio.SOL')).toBe('mate.rio.sol'));
  it('a 22-digit number is not an alias kind', () => expect(kindOf('1234567890123456789012')).toBeNull());
});

describe('CUIT / CUIL (D7)', () => {
  // AFIP's own CUIT and common published examples.
  it.each(['33693450239', '20-12345678-6', '30-70906925-6', '20-99999999-9', '27999999994'])('accepts %s', (c) =>
    expect(isValidCuit(c)).toBe(true),
  );
  it.each(['33693450238', '2012345678', '201234567866', '20-12345678-X', ''])('refuses %s', (c) =>
    expect(isValidCuit(c)).toBe(false),
  );
  it('maps remainder 11 to 0 and 10 to 9', () => {
    // 20-00000001-? : sum = 2*5 + 1*2 = 12 → 11 - 1 = 10 → 9
    expect(isValidCuit('20000000019')).toBe(true);
    // 20-00000005-? : sum = 10 + 5*2 = 20 → 11 - 9 = 2
    expect(isValidCuit('20000000052')).toBe(true);
    // 23-00000000-? : sum = 10 + 3*4 = 22 → 11 - 0 = 11 → 0
    expect(isValidCuit('23000000000')).toBe(true);
  });
});
