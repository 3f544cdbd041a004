/**
 * Who holds an account, read from its 22 digits (D7): a CBU's first 3 digits are the BCRA entity code of the
 * bank; a CVU (`000…`) is a virtual account of a payment service provider (PSP), whose 4-digit code follows.
 *
 * Source: the BCRA's register of financial entities ("Código de entidad", bcra.gob.ar › Sistema financiero ›
 * Entidades), cross-checked against two independently maintained public copies of it (2020 and 2024). Only codes
 * on which they agree, or whose later reassignment is well known (143 Brubank, 158 Openbank, 312 Voii), are
 * listed; the 4xx range of finance companies changed too often to trust. Names are the register's, short of a
 * few renames not yet reflected there. An unknown code is shown as its number, never guessed.
 *
 * PSPs are deliberately not named: the public copies disagree on every code but one, and that one (0003) is the
 * prefix the sandbox issues its CVUs under, so naming it would put a real company on sandbox receipts.
 */
const BCRA_BANKS: Readonly<Record<string, string>> = {
  '007': 'Banco de Galicia y Buenos Aires S.A.U.',
  '011': 'Banco de la Nación Argentina',
  '014': 'Banco de la Provincia de Buenos Aires',
  '015': 'Industrial and Commercial Bank of China (Argentina) S.A.U.',
  '016': 'Citibank N.A.',
  '017': 'Banco BBVA Argentina S.A.',
  '018': 'MUFG Bank, Ltd.',
  '020': 'Banco de la Provincia de Córdoba S.A.',
  '027': 'Banco Supervielle S.A.',
  '029': 'Banco de la Ciudad de Buenos Aires',
  '030': 'Banco Central de la República Argentina',
  '034': 'Banco Patagonia S.A.',
  '044': 'Banco Hipotecario S.A.',
  '045': 'Banco de San Juan S.A.',
  '046': 'Banco do Brasil S.A.',
  '060': 'Banco del Tucumán S.A.',
  '065': 'Banco Municipal de Rosario',
  '072': 'Banco Santander Argentina S.A.',
  '083': 'Banco del Chubut S.A.',
  '086': 'Banco de Santa Cruz S.A.',
  '093': 'Banco de La Pampa S.E.M.',
  '094': 'Banco de Corrientes S.A.',
  '097': 'Banco Provincia del Neuquén S.A.',
  '143': 'Brubank S.A.U.',
  '147': 'Banco Interfinanzas S.A.',
  '150': 'HSBC Bank Argentina S.A.',
  '158': 'Openbank Argentina S.A.',
  '165': 'JPMorgan Chase Bank, N.A. (Sucursal Buenos Aires)',
  '191': 'Banco Credicoop Cooperativo Limitado',
  '198': 'Banco de Valores S.A.',
  '247': 'Banco Roela S.A.',
  '254': 'Banco Mariva S.A.',
  '259': 'Banco Itaú Argentina S.A.',
  '262': 'Bank of America, N.A.',
  '266': 'BNP Paribas',
  '268': 'Banco Provincia de Tierra del Fuego',
  '269': 'Banco de la República Oriental del Uruguay',
  '277': 'Banco Sáenz S.A.',
  '281': 'Banco Meridian S.A.',
  '285': 'Banco Macro S.A.',
  '299': 'Banco Comafi S.A.',
  '300': 'Banco de Inversión y Comercio Exterior S.A.',
  '301': 'Banco Piano S.A.',
  '305': 'Banco Julio S.A.',
  '309': 'Banco Rioja S.A.U.',
  '310': 'Banco del Sol S.A.',
  '311': 'Nuevo Banco del Chaco S.A.',
  '312': 'Banco Voii S.A.',
  '315': 'Banco de Formosa S.A.',
  '319': 'Banco CMF S.A.',
  '321': 'Banco de Santiago del Estero S.A.',
  '322': 'Banco Industrial S.A.',
  '330': 'Nuevo Banco de Santa Fe S.A.',
  '331': 'Banco Cetelem Argentina S.A.',
  '332': 'Banco de Servicios Financieros S.A.',
  '336': 'Banco Bradesco Argentina S.A.U.',
  '338': 'Banco de Servicios y Transacciones S.A.',
  '339': 'RCI Banque S.A.',
  '340': 'BACS Banco de Crédito y Securitización S.A.',
  '341': 'Banco Masventas S.A.',
  '384': 'Wilobank S.A.',
  '386': 'Nuevo Banco de Entre Ríos S.A.',
  '389': 'Banco Columbia S.A.',
  '426': 'Banco Bica S.A.',
  '431': 'Banco Coinag S.A.',
  '432': 'Banco de Comercio S.A.',
  '515': 'Bank of China Limited, Sucursal Buenos Aires',
};

export type AccountHolder =
  /** A bank account (CBU): the entity code and, when the table knows it, the bank's name. */
  | { type: 'CBU'; entityCode: string; name: string | null }
  /** A virtual account (CVU) of the PSP with this 4-digit code. */
  | { type: 'CVU'; pspCode: string };

/** The holder of a 22-digit account, or null for anything that is not 22 digits. */
export function accountHolder(account: string): AccountHolder | null {
  if (!/^\d{22}$/.test(account)) return null;
  if (account.startsWith('000')) return { type: 'CVU', pspCode: account.slice(3, 7) };
  const entityCode = account.slice(0, 3);
  return { type: 'CBU', entityCode, name: BCRA_BANKS[entityCode] ?? null };
}

/** The bank's name for a CBU's entity code, or null when the table does not know it. */
export const bcraBankName = (entityCode: string): string | null => BCRA_BANKS[entityCode] ?? null;
