import { describe, expect, it } from 'vitest';
import * as server from '../../../src/shared/ar-identifiers.js';
import { checkDestination, cuitProblem, formatCuitInput, isValidCuit, sameDestination } from './ar-ids.js';

describe('CUIT/CUIL as the owner types it', () => {
  it('puts the dashes where they go while typing', () => {
    expect(formatCuitInput('2')).toBe('2');
    expect(formatCuitInput('20')).toBe('20');
    expect(formatCuitInput('201')).toBe('20-1');
    expect(formatCuitInput('2012345678')).toBe('20-12345678');
    expect(formatCuitInput('20123456786')).toBe('20-12345678-6');
    expect(formatCuitInput('20-12345678-6')).toBe('20-12345678-6');
    expect(formatCuitInput('20 1234 5678 6')).toBe('20-12345678-6');
  });

  it('says what is wrong: incomplete, bad characters, too long, wrong check digit', () => {
    expect(cuitProblem('')).toBe('empty');
    expect(cuitProblem('20-1234')).toBe('incomplete');
    expect(cuitProblem('20-1234567a-6')).toBe('chars');
    expect(cuitProblem('20-12345678-66')).toBe('too_long');
    expect(cuitProblem('20-12345678-5')).toBe('check_digit');
    expect(cuitProblem('20-12345678-6')).toBeNull();
    expect(cuitProblem('30-71592460-5')).toBeNull();
    // r = 10 → 9 and r = 11 → 0 (D7)
    expect(isValidCuit('20-99999999-9')).toBe(true);
    expect(isValidCuit('27-99999999-4')).toBe(true);
  });

  it('agrees with the service on every check digit', () => {
    for (let i = 0; i < 2000; i++) {
      const body = String(20_000_000_00 + Math.floor(Math.random() * 14_999_999_99)).slice(0, 10);
      for (let d = 0; d <= 9; d++) expect(isValidCuit(`${body}${d}`)).toBe(server.isValidCuit(`${body}${d}`));
    }
  });
});

describe('CBU, CVU and alias entries', () => {
  it('accepts valid accounts and aliases, naming their kind', () => {
    expect(checkDestination('2850590940090418135201')).toEqual({ kind: 'CBU', problem: null, value: '2850590940090418135201' });
    expect(checkDestination('28505909 40090418135201')).toMatchObject({ kind: 'CBU', problem: null, value: '2850590940090418135201' });
    expect(checkDestination('0170099220000067797370')).toMatchObject({ kind: 'CBU', problem: null });
    expect(checkDestination('mate.rio.sol')).toEqual({ kind: 'ALIAS', problem: null, value: 'mate.rio.sol' });
    const cvu = server.withCheckDigits('0000003', '1000000000017');
    expect(checkDestination(cvu)).toMatchObject({ kind: 'CVU', problem: null });
  });

  it('says what is wrong while typing', () => {
    expect(checkDestination('  ').problem).toBe('empty');
    expect(checkDestination('28505909').problem).toBe('incomplete');
    expect(checkDestination('28505909400904181352011').problem).toBe('too_long');
    expect(checkDestination('2850590940090418135202').problem).toBe('check_digit');
    expect(checkDestination('mate rio').problem).toBe('alias_chars');
    expect(checkDestination('ñandú.sol').problem).toBe('alias_chars');
    expect(checkDestination('corto').problem).toBe('alias_length');
    expect(checkDestination('un.alias.demasiado.largo').problem).toBe('alias_length');
  });

  it('agrees with the service on check digits and kinds', () => {
    for (let i = 0; i < 2000; i++) {
      const digits = Array.from({ length: 22 }, () => Math.floor(Math.random() * 10)).join('');
      const s = i % 3 === 0 ? `000${digits.slice(3)}` : digits;
      const mine = checkDestination(s);
      expect(mine.problem === null).toBe(server.hasValidAccountCheckDigits(s));
      if (mine.problem === null) expect(mine.kind).toBe(server.kindOf(s));
    }
    for (const alias of ['mate.rio.sol', 'ABC-123', 'a.b', 'sandbox.reject', 'x'.repeat(21)]) {
      expect(checkDestination(alias).problem === null).toBe(server.isAlias(alias));
    }
  });

  it('compares aliases case-insensitively, like the whitelist does', () => {
    expect(sameDestination('Mate.Rio.Sol', 'mate.rio.sol')).toBe(true);
    expect(sameDestination('28505909 40090418135201', '2850590940090418135201')).toBe(true);
    expect(sameDestination('mate.rio.sol', 'mate.rio.luna')).toBe(false);
  });
});
