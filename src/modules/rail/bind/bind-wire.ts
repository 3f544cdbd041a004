/**
 * BIND's PSP API as both sides of the wire see it: the paths the adapter calls and the simulator serves, the
 * bodies' shapes, and exact decimal amounts. Each path is the one on the page of psp.bind.com.ar/developers named
 * beside it (docs/bank-rail.md has the whole mapping, with what BIND leaves undocumented and how we chose).
 */

/** BIND's own bank code: every Agente de Cobros path carries it. */
export const BIND_BANK_ID = '322';
const COBROS = '/cvucollectentidad-financial/v1/v1.201';
const WALLET_CUENTA = '/walletentidad-cuenta/v1/api/v1.201';

export const BIND_PATHS = {
  /** "Crear CVU" (apis/transfer-crearcvu). */
  createCvu: `${COBROS}/banks/${BIND_BANK_ID}/view/owner/wallet/cvu`,
  /** "Asignar alias" (apis/transfer-asignaralias). */
  assignAlias: `${COBROS}/banks/${BIND_BANK_ID}/view/owner/wallet/alias`,
  /** "Realizar Transferencia desde CBU" (apis/transfer-transferir): `origin_id` makes a repeat return the original. */
  transfer: `${COBROS}/banks/${BIND_BANK_ID}/accounts/owner/transaction-request-types/TRANSFER/transaction-requests`,
  /** "Consultar Transferencia" (apis/transfer-consultartransferencia): by Coelsa id or our `origin_id`. */
  transferById: (id: string) => `${COBROS}/banks/${BIND_BANK_ID}/accounts/owner/transaction-request-types/TRANSFER/${encodeURIComponent(id)}`,
  /** "Consultar Transferencias" (apis/transfer-consultartransferencias): filters travel as headers. */
  transfers: `${COBROS}/banks/${BIND_BANK_ID}/accounts/transfers`,
  /** "Consultar saldo" (apis/consultar-saldo-recaudadora-agentedepago). */
  balance: `${COBROS}/Balance`,
  /** "Consultar cuenta x CBU/CVU/alias" (apis/consultar-cbu-cvu-por-cbu-cvu-o-alias). */
  lookup: `${WALLET_CUENTA}/CuentaCVUByCbuCvuOrAlias`,
} as const;

/** BIND's transfer states ("Realizar Transferencia", "Consultar Transferencia"). */
export type BindTransferStatus = 'PENDING' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED' | 'UNKNOWN' | 'UNKNOWN_FOREVER';
/** The listing marks incoming transfers with this type (and, for them, this status). */
export const RECEIVED = 'TRANSFERENCIAS_RECIBIDAS';
/** The event type of "Aviso de Transferencia Entrante en CVU" (apis/transfer-webhookentrantecvu). */
export const CVU_RECEIVED_EVENT = 'transfer.cvu.received';

export interface BindRouting {
  scheme: string;
  address: string;
  code?: string;
}

/** A transfer as "Realizar/Consultar Transferencia(s)" and the webhooks describe it. Amounts are exact decimal strings here. */
export interface BindTransfer {
  id: string;
  type: 'TRANSFER';
  from: { bank_id: string; account_id: string };
  counterparty: { id: string; name: string; id_type: string; bank_routing: BindRouting; account_routing: BindRouting };
  details: {
    type?: string;
    origin_id?: string | null;
    origin_debit?: { cvu: string; cuit: string } | null;
    origin_credit?: { cvu: string; cuit: string } | null;
  };
  transaction_ids: string[];
  status: string;
  start_date: string | null;
  end_date: string | null;
  charge: { summary: string; value: { currency: string; amount: string } };
}

/** The body of "Aviso de Transferencia Entrante en CVU". */
export interface BindCvuReceivedNotice {
  id: string;
  object?: string;
  created: string;
  type: string;
  redeliveries: number;
  data: BindTransfer;
}

/** The answer of "Consultar cuenta x CBU/CVU/alias". */
export interface BindAccountLookup {
  cuentaId: number | null;
  cbucvu: string;
  alias: string | null;
  cuitCuil: string;
  nombre: string;
  bancoNombre: string | null;
  activo: boolean;
  moneda: string;
}

/** BIND's names for the amount fields of its bodies (`value.amount`, `saldo`, `importe`). */
const AMOUNT_KEYS = ['amount', 'saldo', 'importe'];
const AMOUNT_NUMBER = new RegExp(`("(?:${AMOUNT_KEYS.join('|')})"\\s*:\\s*)(-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)`, 'g');

/**
 * JSON.parse for BIND's bodies that keeps amounts exact: BIND writes them as JSON numbers, and a number would
 * pass through a float on its way to centavos. The amount fields' literals are turned into strings before
 * parsing, so `centavosOf` reads the digits BIND wrote.
 */
export function parseBindJson<T>(text: string): T {
  return JSON.parse(text.replace(AMOUNT_NUMBER, '$1"$2"')) as T;
}

const DECIMAL_MARK = '\u0000decimal:';

/** An amount to be written as a JSON number with exactly the digits given (see `stringifyBindJson`). */
export const decimal = (pesos: string): string => `${DECIMAL_MARK}${pesos}`;

/** JSON.stringify that writes `decimal(...)` values as bare JSON numbers (`1234.56`, never `1234.5599999`). */
export function stringifyBindJson(value: unknown): string {
  return JSON.stringify(value).replace(new RegExp(`"${DECIMAL_MARK.replace('\u0000', '\\\\u0000')}(-?\\d+(?:\\.\\d+)?)"`, 'g'), '$1');
}

/** Centavos → pesos with exactly two decimals ("1234.56"), by integer arithmetic. */
export function pesosOf(centavos: number): string {
  if (!Number.isSafeInteger(centavos)) throw new RangeError(`not a whole number of centavos: ${centavos}`);
  const sign = centavos < 0 ? '-' : '';
  const abs = Math.abs(centavos);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * An amount as BIND wrote it (a decimal literal, or a string of one) → centavos, digit by digit. Null when it is
 * not a plain decimal or carries a fraction of a centavo: such an amount is not guessed at.
 */
export function centavosOf(amount: unknown): number | null {
  const text = typeof amount === 'number' ? String(amount) : typeof amount === 'string' ? amount.trim() : '';
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return null;
  const fraction = (m[3] ?? '').replace(/0+$/, '');
  if (fraction.length > 2) return null;
  const c = Number(m[2]) * 100 + Number(fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(c)) return null;
  return m[1] === '-' ? -c : c;
}
