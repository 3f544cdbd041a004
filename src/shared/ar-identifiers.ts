/**
 * Argentine account and tax identifiers (D7). A CBU and a CVU are 22 digits in two blocks, each ending in a
 * check digit; a CVU starts with `000` (the virtual-account "bank"). An alias is 6–20 of `A-Z a-z 0-9 . -`.
 */
export type DestinationKind = 'CBU' | 'CVU' | 'ALIAS';

const BLOCK1_WEIGHTS = [7, 1, 3, 9, 7, 1, 3];
const BLOCK2_WEIGHTS = [3, 9, 7, 1, 3, 9, 7, 1, 3, 9, 7, 1, 3];

export function checkDigit(digits: string, weights: number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += Number(digits[i]) * weights[i]!;
  return (10 - (sum % 10)) % 10;
}

/** 22 digits with both check digits right (any bank, virtual or not). */
export function hasValidAccountCheckDigits(s: string): boolean {
  if (!/^\d{22}$/.test(s)) return false;
  return (
    checkDigit(s.slice(0, 7), BLOCK1_WEIGHTS) === Number(s[7]) &&
    checkDigit(s.slice(8, 21), BLOCK2_WEIGHTS) === Number(s[21])
  );
}

export const isCvu = (s: string): boolean => s.startsWith('000') && hasValidAccountCheckDigits(s);
/** A CBU is a bank account: valid digits and not in the virtual-account range. */
export const isCbu = (s: string): boolean => !s.startsWith('000') && hasValidAccountCheckDigits(s);

export const isAlias = (s: string): boolean => /^[A-Za-z0-9.-]{6,20}$/.test(s);
/** Aliases compare case-insensitively (D7); stored and looked up in lower case. */
export const normalizeAlias = (s: string): string => s.toLowerCase();

/** Builds a valid 22-digit number from a 7-digit bank/branch prefix and a 13-digit account number. */
export function withCheckDigits(prefix7: string, account13: string): string {
  if (!/^\d{7}$/.test(prefix7) || !/^\d{13}$/.test(account13)) throw new Error('prefix7/account13 must be digits');
  return `${prefix7}${checkDigit(prefix7, BLOCK1_WEIGHTS)}${account13}${checkDigit(account13, BLOCK2_WEIGHTS)}`;
}

/** Whether `value` is a well-formed destination of `kind` (the policy's `destination_invalid`, D15). */
export function isValidDestination(kind: DestinationKind, value: string): boolean {
  switch (kind) {
    case 'CBU':
      return isCbu(value);
    case 'CVU':
      return isCvu(value);
    case 'ALIAS':
      return isAlias(value);
  }
}

/**
 * D32, D40: the kind of a destination sent without one: 22 digits starting `000` are a CVU, other 22 digits a
 * CBU, anything else an alias. Unlike `kindOf` it checks nothing, so a malformed destination still reaches the
 * policy and is denied `destination_invalid` there; every destination the old default (CBU) accepted is a CBU here.
 */
export const inferDestinationKind = (destination: string): DestinationKind =>
  /^\d{22}$/.test(destination) ? (destination.startsWith('000') ? 'CVU' : 'CBU') : 'ALIAS';

/** The kind a bare identifier looks like, for whitelist entries that carry no kind. */
export function kindOf(value: string): DestinationKind | null {
  if (isCvu(value)) return 'CVU';
  if (isCbu(value)) return 'CBU';
  if (!/^\d+$/.test(value) && isAlias(value)) return 'ALIAS';
  return null;
}

/** Canonical form for comparing destinations (whitelist matching): aliases lower-cased, numbers as-is. */
export const canonicalDestination = (value: string): string => (kindOf(value) === 'ALIAS' ? normalizeAlias(value) : value);

const CUIT_WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];

export function cuitCheckDigit(first10: string): number {
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += Number(first10[i]) * CUIT_WEIGHTS[i]!;
  const r = 11 - (sum % 11);
  return r === 11 ? 0 : r === 10 ? 9 : r;
}

/** CUIT/CUIL: 11 digits (dashes allowed in input), last one a mod-11 check digit (D7). */
export function isValidCuit(s: string): boolean {
  const d = normalizeCuit(s);
  return /^\d{11}$/.test(d) && cuitCheckDigit(d.slice(0, 10)) === Number(d[10]);
}

export const normalizeCuit = (s: string): string => s.replace(/-/g, '');
