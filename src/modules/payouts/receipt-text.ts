import type { PayoutStatus } from './payouts.tables.js';

/**
 * The receipt's words (D21), in es-AR: titles by outcome, reasons in plain Spanish, Buenos Aires times on a
 * 24-hour clock, masked account numbers. Shared by the JSON form (title, texts) and both renderings.
 */

/** Only a confirmed payout gets the voucher title; anything else must not read as proof of payment. */
const TITLES: Record<PayoutStatus, string> = {
  confirmed: 'Comprobante de transferencia',
  submitted: 'Transferencia en curso',
  approved: 'Transferencia en curso',
  pending_approval: 'Transferencia pendiente de aprobación',
  rejected: 'Transferencia rechazada',
  expired: 'Transferencia vencida',
  failed: 'Transferencia fallida',
};

const STATUS_TEXTS: Record<PayoutStatus, string> = {
  confirmed: 'El banco confirmó la transferencia.',
  submitted: 'Enviada al banco, que todavía no la confirmó.',
  approved: 'Aprobada; se está enviando al banco.',
  pending_approval: 'Espera la aprobación del titular de la cuenta. No se movió dinero.',
  rejected: 'El titular de la cuenta la rechazó. No se movió dinero.',
  expired: 'Nadie la aprobó a tiempo. No se movió dinero.',
  // Every failure path leaves the money in the origin account: refused before submission, rejected by the rail,
  // or reversed by it after acceptance (D19, D25).
  failed: 'No se realizó. El importe no quedó debitado de la cuenta de origen.',
};

export const STATUS_LABELS: Record<PayoutStatus, string> = {
  pending_approval: 'Pendiente de aprobación',
  approved: 'Aprobada',
  rejected: 'Rechazada',
  expired: 'Vencida',
  submitted: 'Enviada',
  confirmed: 'Acreditada',
  failed: 'Fallida',
};

export const titleOf = (s: PayoutStatus): string => TITLES[s];
export const statusTextOf = (s: PayoutStatus): string => STATUS_TEXTS[s];
/** Whether the document proves a payment; the renderings say so when it does not. */
export const isProofOfPayment = (s: PayoutStatus): boolean => s === 'confirmed';

/** Rail failure codes (rail.port.ts, sandbox D25) and the deny reasons re-checked at approval (D15, D28, D31). */
const FAILURE_TEXTS: Record<string, string> = {
  insufficient_funds: 'La cuenta de origen no tenía saldo suficiente.',
  destination_not_found: 'La cuenta de destino no existe.',
  destination_rejected: 'El banco de destino rechazó la transferencia.',
  destination_account_closed: 'La cuenta de destino está cerrada.',
  invalid_request: 'El banco rechazó la operación por datos inválidos.',
  rail_failed: 'El banco no pudo completar la transferencia.',
  kyc_incomplete: 'La identidad del titular de la cuenta todavía no está verificada.',
  absolute_cap: 'El importe supera el máximo permitido por pago.',
  destination_invalid: 'La cuenta de destino no es válida o ya no existe.',
  amount_invalid: 'El importe no es válido.',
  payouts_paused: 'Los pagos de la cuenta estaban pausados.',
  key_allowlist_violation: 'El destino no está entre los permitidos para la clave que la pidió.',
};

/** Why the policy asked the owner (D15, D31); the same words as the Telegram approval message. */
const APPROVAL_TEXTS: Record<string, string> = {
  per_tx_limit: 'supera el límite por pago',
  daily_limit: 'supera el límite diario',
  monthly_limit: 'supera el límite mensual',
  above_approval_threshold: 'supera el monto que pide aprobación',
  destination_not_whitelisted: 'el destino no está en la lista de confianza',
  key_per_tx_limit: 'supera el límite por pago de la clave',
  key_daily_limit: 'supera el límite diario de la clave',
  key_monthly_limit: 'supera el límite mensual de la clave',
};

const codes = (s: string | null): string[] =>
  (s ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);

/** `failure_reason` (one code, or the comma-joined reasons of a refused approval) as Spanish sentences. */
export function failureText(reason: string | null): string | null {
  const list = codes(reason);
  if (list.length === 0) return null;
  return list.map((c) => FAILURE_TEXTS[c] ?? `Motivo informado por el banco: ${c}.`).join(' ');
}

/** The approval reasons as one Spanish clause: "supera el límite diario y el destino no está …". */
export function approvalReasonsText(reasons: string[]): string | null {
  const parts = reasons.map((r) => APPROVAL_TEXTS[r] ?? r);
  if (parts.length === 0) return null;
  const text = parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} y ${parts.at(-1)}`;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** es-AR month abbreviations written out, so the text does not move with the ICU version ('sept' vs 'sep'). */
const MONTHS = ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sep', 'oct', 'nov', 'dic'];

const buenosAires = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/Argentina/Buenos_Aires',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** "22 nov 2026, 14:05:09": Buenos Aires wall time on a 24-hour clock (es-AR's own style says "2:05:09 p. m."). */
export function formatWhen(iso: string): string {
  const p = Object.fromEntries(buenosAires.formatToParts(new Date(iso)).map((x) => [x.type, x.value]));
  return `${Number(p.day)} ${MONTHS[Number(p.month) - 1]} ${p.year}, ${p.hour}:${p.minute}:${p.second}`;
}

/** "20-12345678-9"; anything that is not 11 digits is shown as it is. */
export const formatCuit = (s: string | null): string =>
  s && /^\d{11}$/.test(s) ? `${s.slice(0, 2)}-${s.slice(2, 10)}-${s.slice(10)}` : (s ?? '—');

const MASK = '•';

/**
 * "285•••••••••••••••5201". A printed voucher travels (it is sent to the payee, forwarded, filed), so the payee's
 * account keeps only the entity code, which the bank's name already discloses, and the last 4 digits that the
 * payee recognises; the full number stays in the JSON form and the payout record, for the owner.
 */
export function maskAccount(account: string): string {
  if (!/^\d{22}$/.test(account)) return account;
  return `${account.slice(0, 3)}${MASK.repeat(15)}${account.slice(18)}`;
}

/** "CBU" or "CVU" from the number itself (D7: a CVU starts with 000). */
export const accountKind = (account: string): 'CBU' | 'CVU' => (account.startsWith('000') ? 'CVU' : 'CBU');

const VIA: Record<string, string> = { dashboard: 'desde el panel', telegram: 'por Telegram' };
/** "desde el panel", "por Telegram": the channel of an owner decision (D23). */
export const viaText = (via: string | null): string => (via && VIA[via]) || (via ? `por ${via}` : '');
