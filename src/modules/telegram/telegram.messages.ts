import { formatArs } from '../../shared/money.js';
import type { ApprovalNotice } from '../approvals/channels/channel.port.js';
import { FIELD_TEXT, fieldValueText, reasonsText } from '../approvals/channels/notice-text.js';

/** Approval messages in plain Spanish for the owner (D23). */
const when = new Intl.DateTimeFormat('es-AR', { timeZone: 'America/Argentina/Buenos_Aires', dateStyle: 'medium', timeStyle: 'short' });

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
      `Motivo: ${reasonsText(p.reasons)}`,
      ...(p.note ? [`Concepto: ${p.note}`] : []),
      agent,
      expiry,
    ].join('\n');
  }
  const change = n.thresholdChange!;
  const lines = Object.entries(change.proposed).map(
    ([k, v]) => `• ${FIELD_TEXT[k] ?? k}: ${fieldValueText(k, change.current[k])} → ${fieldValueText(k, v)}`,
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
