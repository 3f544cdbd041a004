/**
 * Argentine identifiers as the owner types them (D7), with the reason a value is not valid yet, so forms can say
 * what is wrong while typing. The rules are the service's (`src/shared/ar-identifiers.ts`); a unit test checks
 * both agree.
 */

const CUIT_WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
const BLOCK1_WEIGHTS = [7, 1, 3, 9, 7, 1, 3];
const BLOCK2_WEIGHTS = [3, 9, 7, 1, 3, 9, 7, 1, 3, 9, 7, 1, 3];

export type CuitProblem = 'empty' | 'chars' | 'incomplete' | 'too_long' | 'check_digit';

export function cuitCheckDigit(first10: string): number {
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += Number(first10[i]) * CUIT_WEIGHTS[i]!;
  const r = 11 - (sum % 11);
  return r === 11 ? 0 : r === 10 ? 9 : r;
}

/** Digits only, at most 11: what a CUIT field keeps of any input (spaces, dashes, dots dropped). */
export const cuitDigits = (input: string): string => input.replace(/[\s.-]/g, '');

/** As the owner types: `20123456786` → `20-12345678-6` (partial input keeps its dashes where they go). */
export function formatCuitInput(input: string): string {
  const d = cuitDigits(input);
  if (!/^\d*$/.test(d)) return input;
  if (d.length <= 2) return d;
  if (d.length <= 10) return `${d.slice(0, 2)}-${d.slice(2)}`;
  return `${d.slice(0, 2)}-${d.slice(2, 10)}-${d.slice(10)}`;
}

/** Null when the CUIT/CUIL is valid; else why not. */
export function cuitProblem(input: string): CuitProblem | null {
  const d = cuitDigits(input);
  if (d === '') return 'empty';
  if (!/^\d+$/.test(d)) return 'chars';
  if (d.length < 11) return 'incomplete';
  if (d.length > 11) return 'too_long';
  return cuitCheckDigit(d.slice(0, 10)) === Number(d[10]) ? null : 'check_digit';
}

export const isValidCuit = (input: string): boolean => cuitProblem(input) === null;

function checkDigit(digits: string, weights: number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += Number(digits[i]) * weights[i]!;
  return (10 - (sum % 10)) % 10;
}

export type DestinationKind = 'CBU' | 'CVU' | 'ALIAS';
export type AccountProblem = 'empty' | 'incomplete' | 'too_long' | 'check_digit' | 'alias_chars' | 'alias_length';

export interface DestinationCheck {
  /** What the value is (or is being typed as): digits are an account number, anything else an alias. */
  kind: DestinationKind | null;
  problem: AccountProblem | null;
  /** The value as sent to the API: digits without spaces, an alias as typed. */
  value: string;
}

/** A CBU, CVU or alias as typed into a whitelist or allowlist field. */
export function checkDestination(input: string): DestinationCheck {
  const trimmed = input.trim();
  if (trimmed === '') return { kind: null, problem: 'empty', value: '' };
  const digits = trimmed.replace(/[\s-]/g, '');
  if (/^\d+$/.test(digits)) {
    const kind: DestinationKind = digits.startsWith('000') ? 'CVU' : 'CBU';
    if (digits.length < 22) return { kind, problem: 'incomplete', value: digits };
    if (digits.length > 22) return { kind, problem: 'too_long', value: digits };
    const ok = checkDigit(digits.slice(0, 7), BLOCK1_WEIGHTS) === Number(digits[7]) && checkDigit(digits.slice(8, 21), BLOCK2_WEIGHTS) === Number(digits[21]);
    return { kind, problem: ok ? null : 'check_digit', value: digits };
  }
  if (!/^[A-Za-z0-9.-]+$/.test(trimmed)) return { kind: 'ALIAS', problem: 'alias_chars', value: trimmed };
  if (trimmed.length < 6 || trimmed.length > 20) return { kind: 'ALIAS', problem: 'alias_length', value: trimmed };
  return { kind: 'ALIAS', problem: null, value: trimmed };
}

/** Whitelist entries compare like the service does: aliases case-insensitively, numbers as digits. */
export const sameDestination = (a: string, b: string): boolean => {
  const x = checkDestination(a);
  const y = checkDestination(b);
  return x.kind === 'ALIAS' && y.kind === 'ALIAS' ? x.value.toLowerCase() === y.value.toLowerCase() : x.value === y.value;
};
