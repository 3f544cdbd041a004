import { formatArs } from '../../../shared/money.js';

/** The words messaging channels (Telegram, WhatsApp) use for an approval, in plain Spanish for the owner (D23, D45). */
export const REASON_TEXT: Record<string, string> = {
  per_tx_limit: 'supera el límite por pago',
  daily_limit: 'supera el límite diario',
  monthly_limit: 'supera el límite mensual',
  above_approval_threshold: 'supera el monto que pide aprobación',
  destination_not_whitelisted: 'el destino no está en la lista de confianza',
  key_per_tx_limit: 'supera el límite por pago del agente',
  key_daily_limit: 'supera el límite diario del agente',
  key_monthly_limit: 'supera el límite mensual del agente',
  kyc_incomplete: 'tu identidad todavía no está verificada',
  absolute_cap: 'supera el máximo absoluto por pago',
  destination_invalid: 'el destino no es válido',
  key_allowlist_violation: 'el destino no está permitido para ese agente',
  payouts_paused: 'los pagos están pausados',
  limits_changed: 'cambiaste esos límites después de la propuesta; el agente puede proponerla de nuevo',
};

export const FIELD_TEXT: Record<string, string> = {
  per_tx_limit_ars: 'Límite por pago',
  daily_limit_ars: 'Límite diario',
  monthly_limit_ars: 'Límite mensual',
  require_approval_above_ars: 'Pedir aprobación por encima de',
  whitelist_cbus: 'Destinos de confianza',
};

export const reasonsText = (reasons: string[]): string => reasons.map((r) => REASON_TEXT[r] ?? r).join('; ');

/** How a request the re-check ended closed: a payout unpaid, a proposal without touching the limits. */
export const endedText = (kind: string): string => (kind === 'threshold_change' ? 'sin cambiar tus límites' : 'sin pagar');

/** The owner pressed Aprobar and the re-check at that moment ended the request (D28): why, on every channel. */
export const deniedOnApproveText = (reasons: string[], kind = 'payout'): string =>
  `No se pudo aprobar: ${reasonsText(reasons)}. El pedido se cerró ${endedText(kind)}.`;

/** The dashboard's words for an empty trusted list, said where a change would leave it empty. */
const EMPTIED_LIST = 'la lista queda vacía: cualquier destino vale';

/**
 * What a proposed change of limits would do, a line per field, as the owner reads it on a phone: an amount as
 * `before → after`, the trusted destinations as what is added and what is taken away (a whole list of a hundred
 * would not fit, and would hide the one that changes).
 */
export function changeLines(change: { current: Record<string, unknown>; proposed: Record<string, unknown> }): string[] {
  return Object.entries(change.proposed).map(([k, v]) => {
    const label = FIELD_TEXT[k] ?? k;
    if (k !== 'whitelist_cbus') return `${label}: ${fieldValueText(k, change.current[k])} → ${fieldValueText(k, v)}`;
    const before = (change.current[k] as string[] | undefined) ?? [];
    const after = v as string[];
    const added = after.filter((d) => !before.includes(d));
    const removed = before.filter((d) => !after.includes(d));
    const parts = [...(added.length ? [`agrega ${added.join(', ')}`] : []), ...(removed.length ? [`quita ${removed.join(', ')}`] : [])];
    // An emptied list is no list (D15): taking away the last destination reads stricter and lets every one through.
    if (after.length === 0 && before.length > 0) parts.push(EMPTIED_LIST);
    return `${label}: ${parts.join('; ') || 'sin cambios'}`;
  });
}

/**
 * The longest a change's lines may be, joined: what the WhatsApp template shows in one parameter. A proposal that
 * would not fit is refused when made, so the owner is never asked to approve what the message could not show.
 */
export const CHANGE_TEXT_MAX = 280;

/** A threshold value as the owner reads it: an amount, "sin límite" for 0, or the list of destinations. */
export const fieldValueText = (k: string, v: unknown): string =>
  k === 'whitelist_cbus'
    ? (v as string[]).length
      ? (v as string[]).join(', ')
      : '(ninguno)'
    : Number(v) === 0
      ? 'sin límite'
      : formatArs(Math.round(Number(v) * 100));
