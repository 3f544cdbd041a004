import { randomInt } from 'node:crypto';
import { cuitCheckDigit, withCheckDigits } from '../../../shared/ar-identifiers.js';

/** Sandbox "PSP" prefix for issued CVUs: `000` (virtual account) + PSP id `0003`. */
export const SANDBOX_CVU_PREFIX = '0000003';

/** Magic aliases (D25), documented in the README. */
export const MAGIC_ALIASES = {
  'sandbox.reject': 'reject',
  'sandbox.fail': 'fail',
  'sandbox.timeout': 'timeout',
} as const;
export type MagicScenario = (typeof MAGIC_ALIASES)[keyof typeof MAGIC_ALIASES];

/** Legal ids whose DNI part is 99999999 keep KYC `pending` in the sandbox (D25), e.g. 20-99999999-9. */
export const isKycPendingLegalId = (cuit: string): boolean => cuit.slice(2, 10) === '99999999';

/** An external account the sandbox pretends lives at another bank (a valid Banco Macro CBU). */
export const EXTERNAL_CBU = '2850590940090418135201';

const WORDS = [
  'mate', 'tango', 'pampa', 'rio', 'sol', 'luna', 'campo', 'ceibo', 'andes', 'puma', 'nube', 'vino', 'faro',
  'brisa', 'cerro', 'lago', 'trigo', 'yerba', 'ombu', 'delta', 'monte', 'sierra', 'poncho', 'gaucho', 'alfajor',
  'dulce', 'lapiz', 'casa', 'perro', 'gato', 'arbol', 'mesa', 'silla', 'verde', 'azul', 'rojo', 'nieve', 'viento',
];

export function randomAlias(): string {
  const pick = () => WORDS[randomInt(WORDS.length)]!;
  let alias = `${pick()}.${pick()}.${pick()}`;
  while (alias.length > 20) alias = `${pick()}.${pick()}.${pick()}`;
  return alias;
}

export function randomCvu(): string {
  let account = '';
  for (let i = 0; i < 13; i++) account += randomInt(10);
  return withCheckDigits(SANDBOX_CVU_PREFIX, account);
}

/** A stable, valid CUIT for an external account holder the sandbox makes up. */
export function syntheticLegalId(accountNumber: string): string {
  const first10 = `20${accountNumber.slice(10, 18)}`;
  return `${first10}${cuitCheckDigit(first10)}`;
}
