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

/**
 * The account each magic alias resolves to (made-up bank 999, valid check digits per D7). Paying the number
 * plays the same scenario as paying the alias, so a payout can always be sent to the account resolved when it
 * was requested (D28) without losing its sandbox behaviour.
 */
export const MAGIC_CBUS: Record<MagicScenario, string> = {
  reject: '9990001800000000000017',
  fail: '9990001800000000000024',
  timeout: '9990001800000000000031',
};
const SCENARIO_BY_CBU = new Map<string, MagicScenario>(Object.entries(MAGIC_CBUS).map(([s, cbu]) => [cbu, s as MagicScenario]));

export const magicScenarioOfAlias = (normalizedAlias: string): MagicScenario | null =>
  (MAGIC_ALIASES as Record<string, MagicScenario>)[normalizedAlias] ?? null;
export const magicScenarioOfAccount = (accountNumber: string): MagicScenario | null => SCENARIO_BY_CBU.get(accountNumber) ?? null;
export const magicHolderName = (scenario: MagicScenario): string => `Sandbox ${scenario}`;

/** Legal ids whose DNI part is 99999999 keep KYC `pending` in the sandbox (D25), e.g. 20-99999999-9. */
export const isKycPendingLegalId = (cuit: string): boolean => cuit.slice(2, 10) === '99999999';

/** An external account the sandbox pretends lives at another bank (a valid Banco Macro CBU). */
export const EXTERNAL_CBU = '2850590940090418135201';

/** An outside account holder, made up, with a valid CBU and CUIT (D7). */
export interface OutsideHolder {
  cbu: string;
  name: string;
  legalId: string;
}

/**
 * Where a sandbox deposit comes from when the caller names no sender: a company (CUIT 30-…) at Banco Nación, so
 * it is never confused with the user, with a payout destination used in examples, or with a reversal.
 */
export const DEFAULT_DEPOSITOR: OutsideHolder = {
  cbu: '0110599540000042007856',
  name: 'Distribuidora Los Alerces S.A.',
  legalId: '30715924605',
};

/** The sender of the sandbox crypto off-ramp's peso credits. */
export const OFFRAMP_DEPOSITOR: OutsideHolder = {
  cbu: '0070999020000038471256',
  name: 'Sandbox Crypto Off-ramp',
  legalId: '30712345671',
};

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
