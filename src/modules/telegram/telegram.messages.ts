import { formatArs } from '../../shared/money.js';
import type { ApprovalNotice } from '../approvals/channels/channel.port.js';

/** Approval messages in plain Spanish for the owner (D23). */
const REASONS: Record<string, string> = {
  per_tx_limit: 'supera el límite por pago',
  daily_limit: 'supera el límite diario',
  monthly_limit: 'supera el límite mensual',
  above_approval_threshold: 'supera el monto que pide aprobación',
  destination_not_whitelisted: 'el destino no está en la lista de confianza',
};
const FIELDS: Record<string, string> = {
  per_tx_limit_ars: 'Límite por pago',
  daily_limit_ars: 'Límite diario',
  monthly_limit_ars: 'Límite mensual',
  require_approval_above_ars: 'Pedir aprobación por encima de',
  whitelist_cbus: 'Destinos de confianza',
};
const when = new Intl.DateTimeFormat('es-AR', { timeZone: 'America/Argentina/Buenos_Aires', dateStyle: 'medium', timeStyle: 'short' });

const fieldValue = (k: string, v: unknown): string =>
  k === 'whitelist_cbus'
    ? (v as string[]).length
      ? (v as string[]).join(', ')
      : '(ninguno)'
    : Number(v) === 0
      ? 'sin límite'
      : formatArs(Math.round(Number(v) * 100));

export function pendingText(n: ApprovalNotice): string {
  const agent = n.apiKeyName ? `Agente: ${n.apiKeyName}` : 'Pedido desde el panel';
  const expiry = `Vence: ${when.format(new Date(n.expiresAt))} (hora de Buenos Aires)`;
  if (n.payout) {
    const p = n.payout;
    return [
      '🔔 Aprobación requerida: pago',
      `Monto: ${formatArs(p.amount)}`,
      `Destino: ${p.destination} (${p.destinationKind})`,
      ...(p.recipientName ? [`Destinatario: ${p.recipientName}`] : []),
      `Motivo: ${p.reasons.map((r) => REASONS[r] ?? r).join('; ')}`,
      ...(p.note ? [`Concepto: ${p.note}`] : []),
      agent,
      expiry,
    ].join('\n');
  }
  const change = n.thresholdChange!;
  const lines = Object.entries(change.proposed).map(
    ([k, v]) => `• ${FIELDS[k] ?? k}: ${fieldValue(k, change.current[k])} → ${fieldValue(k, v)}`,
  );
  return ['🔔 Aprobación requerida: cambio de límites', ...lines, agent, expiry].join('\n');
}

const OUTCOME: Record<string, string> = {
  approved: '✅ Aprobado',
  rejected: '❌ Rechazado',
  expired: '⌛ Vencido: no se respondió a tiempo, no se hizo nada',
};

export function resolvedText(n: ApprovalNotice): string {
  return `${pendingText(n).replace(/^🔔 Aprobación requerida/, 'Solicitud')}\n\n${OUTCOME[n.status] ?? n.status}`;
}
